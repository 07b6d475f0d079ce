/* The plain plays of Conversion Go (verifier/rules/conversion_go.py), compiled: a run of a line's nodes that hold a
 * placement and nothing the replay must look at (no setup, no TB/TW marks) is played here in one call, from turn 5
 * on (the opening of CON-5 stays in Python), with the same rules: a stone on an empty point (CON-4), then every dead
 * group of the opponent converted, then every dead group of the mover (CON-2, CON-3: no liberty and fewer than two
 * sides), and the runs of mirrored plays counted per player and symmetry (CON-6). The run stops before anything
 * else: a pass, the swap, a node with more to it, a move of the wrong colour, an occupied point or the mirror CON-6
 * refuses; the engine then plays that node itself and says why a move is refused. The plain-Python engine is the
 * reference; the tests compare both.
 *
 * play_run(nodes, start, size, cells, images, sides, runs, turn, swapped, last_play, black, white, place, idents)
 *   nodes: the line (list of Node), from index `start`; cells: bytearray of the board (0 empty, 1 Black, 2 White),
 *   changed in place; images: each point's image under the five symmetries of CON-6, size * size * 5 int32 in
 *   native order; sides: each point's bits of the sides it lies on (bytes); runs: 10 int32 (player 0's five run
 *   lengths, then player 1's), changed in place; turn: the moves made so far (at least 4); swapped: whether the
 *   swap of CON-5 was made; last_play: the index of the previous move's stone, -1 when it was not a play; black,
 *   white: the Colour members; place: MoveKind.PLACE; idents: the property identifiers that end a run.
 *   Returns (next node index, plays made, index of the last node played or -1, turn, last_play).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_plain_moves.h"

#define SYMMETRIES 5
#define MIRROR_LIMIT 10 /* CON-6: the tenth successive mirror with one symmetry is illegal */

typedef struct {
    int size, n;
    unsigned char *cells;
    const int32_t *images;
    const unsigned char *sides;
    unsigned *mark;
    unsigned gen;
    int *group;
} Board;

static int neighbours(const Board *b, int p, int out[4]) {
    int s = b->size, col = p % s, row = p / s, k = 0;
    if (col > 0) out[k++] = p - 1;
    if (col < s - 1) out[k++] = p + 1;
    if (row > 0) out[k++] = p - s;
    if (row < s - 1) out[k++] = p + s;
    return k;
}

/* The group holding `start` into b->group when it is dead (CON-2: no liberty, fewer than two sides): its size, or
 * 0 when it lives. Walked breadth first, as the engine's `_dead_group`. */
static int dead_group(Board *b, int start) {
    unsigned char *cells = b->cells;
    int colour = cells[start], count = 0, nb[4];
    unsigned touched = b->sides[start];
    if (touched & (touched - 1)) return 0; /* two sides or more */
    b->gen++;
    b->mark[start] = b->gen;
    b->group[count++] = start;
    for (int at = 0; at < count; at++) {
        int k = neighbours(b, b->group[at], nb);
        for (int m = 0; m < k; m++) {
            int q = nb[m], c = cells[q];
            if (c == colour) {
                if (b->mark[q] != b->gen) {
                    touched |= b->sides[q];
                    if (touched & (touched - 1)) return 0;
                    b->mark[q] = b->gen;
                    b->group[count++] = q;
                }
            } else if (c == 0) {
                return 0;
            }
        }
    }
    return count;
}

/* Whether point `i` has an empty neighbour. */
static int has_liberty(const Board *b, int i) {
    int nb[4], k = neighbours(b, i, nb);
    for (int m = 0; m < k; m++)
        if (!b->cells[nb[m]]) return 1;
    return 0;
}

/* 1: played; 0: refused (occupied, or the mirror CON-6 refuses; the board is as it was). */
static int play(Board *b, int i, int me, int player, int32_t *runs, int turn, int *last_play) {
    unsigned char *cells = b->cells;
    if (cells[i]) return 0;
    int32_t next[SYMMETRIES];
    int32_t *mine = runs + player * SYMMETRIES;
    int last = *last_play, mirrors = 0;
    if (turn >= 4 && last >= 0) {
        /* CON-6: from turn 5 a play may mirror the opponent's previous play under one or more symmetries. */
        const int32_t *img = b->images + (size_t)last * SYMMETRIES;
        for (int s = 0; s < SYMMETRIES; s++) mirrors |= img[s] == i;
        if (mirrors) {
            for (int s = 0; s < SYMMETRIES; s++) {
                next[s] = img[s] == i ? mine[s] + 1 : 0;
                if (next[s] >= MIRROR_LIMIT) return 0;
            }
        }
    }
    if (!mirrors) memset(next, 0, sizeof next);
    int opp = 3 - me, nb[4], k = neighbours(b, i, nb);
    cells[i] = (unsigned char)me;
    /* CON-3 round one: every dead group of the opponent beside the stone becomes the mover's. */
    for (int m = 0; m < k; m++) {
        int j = nb[m];
        if (cells[j] == opp && !has_liberty(b, j)) {
            int got = dead_group(b, j);
            for (int g = 0; g < got; g++) cells[b->group[g]] = (unsigned char)me;
        }
    }
    /* CON-3 round two: then the mover's group holding the new stone, if it is dead (suicide converts too). */
    if (!has_liberty(b, i)) {
        int got = dead_group(b, i);
        for (int g = 0; g < got; g++) cells[b->group[g]] = (unsigned char)opp;
    }
    memcpy(mine, next, sizeof next);
    *last_play = i;
    return 1;
}

static PyObject *play_run(PyObject *self, PyObject *args) {
    PyObject *nodes, *black, *white, *place, *idents;
    Py_ssize_t start;
    int size, turn, swapped, last_play;
    Py_buffer cells, images, sides, runs;
    if (!PyArg_ParseTuple(args, "O!niw*y*y*w*ipiOOOO!", &PyList_Type, &nodes, &start, &size, &cells, &images,
                          &sides, &runs, &turn, &swapped, &last_play, &black, &white, &place, &PyTuple_Type,
                          &idents))
        return NULL;
    PyObject *result = NULL;
    Board b = {0};
    b.size = size;
    b.n = size * size;
    if (size < 1 || cells.len != b.n || images.len != (Py_ssize_t)b.n * SYMMETRIES * 4 || sides.len != b.n
        || runs.len != 2 * SYMMETRIES * 4 || last_play < -1 || last_play >= b.n || turn < 4) {
        PyErr_SetString(PyExc_ValueError, "play_run: the board, the tables, the runs and the size do not agree");
        goto done;
    }
    b.cells = cells.buf;
    b.images = images.buf;
    b.sides = sides.buf;
    b.mark = calloc((size_t)b.n, sizeof(unsigned));
    b.group = malloc(sizeof(int) * (size_t)b.n);
    if (b.mark == NULL || b.group == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    MoveNames names;
    if (names_open(&names) < 0) goto done;
    Py_ssize_t at = start, count = PyList_GET_SIZE(nodes), last = -1, played = 0;
    int failed = 0;
    for (; at < count; at++) {
        /* From turn 5 player turn % 2 moves (CON-5), holding Black unless the swap was made. */
        int player = turn % 2, me = ((player == 0) != swapped) ? 1 : 2;
        PyObject *colour = me == 1 ? black : white;
        int index = -1, what = plain_placement(PyList_GET_ITEM(nodes, at), &names, idents, place, colour, size,
                                               &index);
        if (what == NODE_ERROR) { failed = 1; break; }
        if (what == NODE_EMPTY) continue;
        if (what == NODE_ENDS_RUN) break;
        if (!play(&b, index, me, player, runs.buf, turn, &last_play)) break;
        played++;
        last = at;
        turn++;
    }
    names_close(&names);
    if (!failed) result = Py_BuildValue("nnnii", at, played, last, turn, last_play);
done:
    free(b.mark);
    free(b.group);
    PyBuffer_Release(&cells);
    PyBuffer_Release(&images);
    PyBuffer_Release(&sides);
    PyBuffer_Release(&runs);
    return result;
}

static PyMethodDef methods[] = {
    {"play_run", play_run, METH_VARARGS, "Play the plain placements of a line from `start` (see the module)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_conversion_go",
    .m_doc = "The plain plays of Conversion Go, compiled (verifier/rules/conversion_go.py is the plain path).",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC PyInit__conversion_go(void) { return PyModule_Create(&module); }
