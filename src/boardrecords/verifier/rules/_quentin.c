/* The plain placements of Quentin (verifier/rules/quentin.py), compiled: a run of a line's nodes that hold a
 * placement and nothing the replay must look at (no setup) is played here in one call, with the same rules: a stone
 * on an empty point (QUE-2), the territories the placement makes filled with the colour of more distinct adjacent
 * stones, on a tie the colour opposite the mover's (QUE-3), the diagonal rule checked on the placed stone's pairs
 * (QUE-4), and the end when a group of the new stones joins its colour's edges (QUE-6: a fill can complete the
 * opponent's chain). Why only the split region and the placed stone's pairs are looked at: the module docstring of
 * quentin.py. The run stops before anything else: a pass, the swap, a node with more to it, a move of the wrong
 * colour, an occupied point or a placement the diagonal rule refuses (undone here); the engine then plays that node
 * itself and says why a move is refused. The engine's groups are not kept here: it rebuilds them when it plays a
 * placement again. The plain-Python engine is the reference; the tests compare both.
 *
 * play_run(nodes, start, size, cells, adj, turn, swapped, black, white, place, idents)
 *   nodes: the line (list of Node), from index `start`; cells: bytearray of the board (0 empty, 1 Black, 2 White),
 *   adj: bytearray of the stones orthogonally adjacent to each point, both changed in place; turn: the moves made
 *   so far; swapped: whether the swap of QUE-7 was made; black, white: the Colour members; place: MoveKind.PLACE;
 *   idents: the property identifiers that end a run.
 *   Returns (next node index, placements made, index of the last node played or -1, turn, the colour code whose
 *   chain the last placement completed or 0).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>

#include "_plain_moves.h"

typedef struct {
    int size, n;
    unsigned char *cells, *adj;
    unsigned *mark;
    unsigned gen;
    int *region, *filled, *stack;
    int nfilled;
} Board;

static int neighbours(const Board *b, int p, int out[4]) {
    int s = b->size, col = p % s, row = p / s, k = 0;
    if (row > 0) out[k++] = p - s;
    if (col > 0) out[k++] = p - 1;
    if (col < s - 1) out[k++] = p + 1;
    if (row < s - 1) out[k++] = p + s;
    return k;
}

/* The region of the empty point q into b->region when it is a territory (every point next to two stones, QUE-3):
 * its size, or 0. */
static int territory(Board *b, int q) {
    int count = 0, nb[4];
    b->gen++;
    b->mark[q] = b->gen;
    b->region[count++] = q;
    for (int at = 0; at < count; at++) {
        int k = neighbours(b, b->region[at], nb);
        for (int m = 0; m < k; m++) {
            int r = nb[m];
            if (!b->cells[r] && b->mark[r] != b->gen) {
                if (b->adj[r] < 2) return 0;
                b->mark[r] = b->gen;
                b->region[count++] = r;
            }
        }
    }
    return count;
}

/* QUE-3: fill the region with the colour of more distinct adjacent stones; on a tie, the colour opposite the
 * mover's `code`. The filled points are added to b->filled. */
static void fill(Board *b, int count, int code) {
    int black = 0, white = 0, nb[4];
    b->gen++;
    for (int at = 0; at < count; at++) {
        int k = neighbours(b, b->region[at], nb);
        for (int m = 0; m < k; m++) {
            int r = nb[m];
            if (b->cells[r] && b->mark[r] != b->gen) {
                b->mark[r] = b->gen;
                if (b->cells[r] == 1) black++;
                else white++;
            }
        }
    }
    unsigned char colour = (unsigned char)(black > white ? 1 : white > black ? 2 : 3 - code);
    for (int at = 0; at < count; at++) {
        int p = b->region[at], k = neighbours(b, p, nb);
        b->cells[p] = colour;
        for (int m = 0; m < k; m++) b->adj[nb[m]]++;
        b->filled[b->nfilled++] = p;
    }
}

static void put(Board *b, int p, unsigned char colour, int step) {
    int nb[4], k = neighbours(b, p, nb);
    b->cells[p] = colour;
    for (int m = 0; m < k; m++) b->adj[nb[m]] = (unsigned char)(b->adj[nb[m]] + step);
}

/* The edge bits of point `p` for colour `c`: 1 on its first edge (row 0 for Black, column 0 for White), 2 on the
 * opposite one. */
static int edge_bits(const Board *b, int p, int c) {
    int s = b->size, line = c == 1 ? p / s : p % s;
    return (line == 0 ? 1 : 0) | (line == s - 1 ? 2 : 0);
}

/* Whether the group holding stone `start` joins its colour's edges; its stones are marked with the current
 * generation, so that a caller looking at several stones of one move walks each group once. */
static int joins_edges(Board *b, int start) {
    int c = b->cells[start], top = 0, reached = edge_bits(b, start, c), nb[4];
    b->mark[start] = b->gen;
    b->stack[top++] = start;
    while (top) {
        int p = b->stack[--top], k = neighbours(b, p, nb);
        for (int m = 0; m < k; m++) {
            int q = nb[m];
            if (b->cells[q] == c && b->mark[q] != b->gen) {
                b->mark[q] = b->gen;
                b->stack[top++] = q;
                reached |= edge_bits(b, q, c);
            }
        }
    }
    return reached == 3;
}

/* 1: played (*won: the colour whose chain it completed, or 0); 0: refused (the board is as it was). */
static int play(Board *b, int i, int code, int *won) {
    unsigned char *cells = b->cells, *adj = b->adj;
    int s = b->size, nb[4], k = neighbours(b, i, nb);
    if (cells[i]) return 0;
    put(b, i, (unsigned char)code, 1);
    b->nfilled = 0;
    for (int m = 0; m < k; m++) {
        int q = nb[m], nq[4], kq, open = 0;
        if (cells[q] || adj[q] < 2) continue;
        kq = neighbours(b, q, nq);
        for (int t = 0; t < kq && !open; t++) open = !cells[nq[t]] && adj[nq[t]] < 2;
        if (open) continue;
        int count = territory(b, q);
        if (count) fill(b, count, code);
    }
    /* QUE-4: only the placed stone's diagonal pairs can be broken (quentin.py, `_apply`). */
    int col = i % s, row = i / s;
    for (int dr = -1; dr <= 1; dr += 2)
        for (int dc = -1; dc <= 1; dc += 2) {
            int rr = row + dr, cc = col + dc;
            if (rr < 0 || rr >= s || cc < 0 || cc >= s) continue;
            int d = rr * s + cc, a = row * s + cc, e = rr * s + col;
            if (cells[d] == code && cells[a] != code && cells[e] != code) {
                for (int f = 0; f < b->nfilled; f++) put(b, b->filled[f], 0, -1);
                put(b, i, 0, -1);
                return 0;
            }
        }
    /* QUE-6: a chain holds new stones; either colour's (a fill can complete the opponent's). */
    *won = 0;
    b->gen++;
    if (joins_edges(b, i)) *won = code;
    for (int f = 0; f < b->nfilled && !*won; f++) {
        int p = b->filled[f];
        if (b->mark[p] != b->gen && joins_edges(b, p)) *won = cells[p];
    }
    return 1;
}

static PyObject *play_run(PyObject *self, PyObject *args) {
    PyObject *nodes, *black, *white, *place, *idents;
    Py_ssize_t start;
    int size, turn, swapped;
    Py_buffer cells, adj;
    if (!PyArg_ParseTuple(args, "O!niw*w*ipOOOO!", &PyList_Type, &nodes, &start, &size, &cells, &adj, &turn,
                          &swapped, &black, &white, &place, &PyTuple_Type, &idents))
        return NULL;
    PyObject *result = NULL;
    Board b = {0};
    b.size = size;
    b.n = size * size;
    if (size < 1 || cells.len != b.n || adj.len != b.n || turn < 0) {
        PyErr_SetString(PyExc_ValueError, "play_run: the board, the counts and the size do not agree");
        goto done;
    }
    b.cells = cells.buf;
    b.adj = adj.buf;
    b.mark = calloc((size_t)b.n, sizeof(unsigned));
    b.region = malloc(sizeof(int) * (size_t)b.n * 3);
    if (b.mark == NULL || b.region == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    b.filled = b.region + b.n;
    b.stack = b.region + 2 * b.n;
    MoveNames names;
    if (names_open(&names) < 0) goto done;
    Py_ssize_t at = start, count = PyList_GET_SIZE(nodes), last = -1, played = 0;
    int failed = 0, won = 0;
    for (; at < count && !won; at++) {
        /* Turns alternate; after a swap (QUE-7) the player to move holds the other colour. */
        int code = ((turn % 2 == 0) != swapped) ? 1 : 2;
        PyObject *colour = code == 1 ? black : white;
        int index = -1, what = plain_placement(PyList_GET_ITEM(nodes, at), &names, idents, place, colour, size,
                                               &index);
        if (what == NODE_ERROR) { failed = 1; break; }
        if (what == NODE_EMPTY) continue;
        if (what == NODE_ENDS_RUN) break;
        if (!play(&b, index, code, &won)) break;
        played++;
        last = at;
        turn++;
    }
    names_close(&names);
    if (!failed) result = Py_BuildValue("nnnii", at, played, last, turn, won);
done:
    free(b.mark);
    free(b.region);
    PyBuffer_Release(&cells);
    PyBuffer_Release(&adj);
    return result;
}

static PyMethodDef methods[] = {
    {"play_run", play_run, METH_VARARGS, "Play the plain placements of a line from `start` (see the module)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_quentin",
    .m_doc = "The plain placements of Quentin, compiled (verifier/rules/quentin.py is the plain path).",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC PyInit__quentin(void) { return PyModule_Create(&module); }
