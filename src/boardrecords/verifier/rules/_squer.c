/* The plain maneuvers of Squer (verifier/rules/squer.py), compiled: a run of a line's nodes that hold a maneuver and
 * nothing the replay must look at (no setup) is played here in one call, with the same rules: a stone on an empty
 * point (SQU-3), the runs of enemy stones next to it flipped along the mover's direction, Black along its row and
 * White along its column (SQU-2), and after it whether the mover's group holding the new stone joins the mover's
 * edges (a chain, GEN-4). The judgement of the end stays in Python (SQU-6, SQU-7, SQU-9): a maneuver after which the
 * opponent may hold a chain, or that fills the last empty point, is played here and then judged by the engine
 * (`pending`). The run stops before anything else: a sweep, a node with more to it, a move of the wrong colour, an
 * occupied point; the engine then plays that node itself and says why a move is refused. The plain-Python engine is
 * the reference; the tests compare both.
 *
 * play_run(nodes, start, size, cells, turn, empties, chain_black, chain_white, black, white, place, idents)
 *   nodes: the line (list of Node), from index `start`; cells: bytearray of the board (0 empty, 1 Black, 2 White),
 *   changed in place; turn: the moves made so far; empties: the empty points; chain_*: whether each colour held a
 *   chain right after its own latest turn; black, white: the Colour members; place: MoveKind.PLACE; idents: the
 *   property identifiers that end a run.
 *   Returns (next node index, moves made, index of the last node played or -1, turn, empties, chain_black,
 *   chain_white, pending): pending is the index of the stone the last maneuver placed when the engine must judge
 *   that turn, else -1.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>

#include "_plain_moves.h"

typedef struct {
    int size, n;
    unsigned char *cells;
    unsigned *mark;
    unsigned gen;
    int *stack;
} Board;

/* The edge bits of point `p` for colour `c` (GEN-3): 1 on its first edge (row 0 for Black, column 0 for White), 2 on
 * the opposite one. */
static int edge_bits(const Board *b, int p, int c) {
    int s = b->size, line = c == 1 ? p / s : p % s;
    return (line == 0 ? 1 : 0) | (line == s - 1 ? 2 : 0);
}

/* Whether the group of `c` stones holding `start` touches both of `c`'s edges. */
static int new_chain(Board *b, int start, int c) {
    int s = b->size, top = 0, reached = edge_bits(b, start, c);
    unsigned char *cells = b->cells;
    b->gen++;
    b->mark[start] = b->gen;
    b->stack[top++] = start;
    while (top) {
        int p = b->stack[--top], col = p % s, row = p / s, nb[4], k = 0;
        if (row > 0) nb[k++] = p - s;
        if (col > 0) nb[k++] = p - 1;
        if (col < s - 1) nb[k++] = p + 1;
        if (row < s - 1) nb[k++] = p + s;
        for (int m = 0; m < k; m++) {
            int q = nb[m];
            if (cells[q] == c && b->mark[q] != b->gen) {
                b->mark[q] = b->gen;
                b->stack[top++] = q;
                reached |= edge_bits(b, q, c);
            }
        }
        if (reached == 3) return 1;
    }
    return 0;
}

/* The maneuver of `me` on empty point `i` (SQU-3): the stone, then in each of the two directions of the mover's
 * line the maximal run of enemy stones next to it flipped (SQU-2: no bracketing stone is needed). */
static void maneuver(Board *b, int i, int me) {
    unsigned char *cells = b->cells;
    int s = b->size, you = 3 - me, step = me == 1 ? 1 : s;
    int lo = me == 1 ? i - i % s : i % s, hi = me == 1 ? lo + s - 1 : i % s + (s - 1) * s;
    cells[i] = (unsigned char)me;
    for (int j = i - step; j >= lo && cells[j] == you; j -= step) cells[j] = (unsigned char)me;
    for (int j = i + step; j <= hi && cells[j] == you; j += step) cells[j] = (unsigned char)me;
}

static PyObject *play_run(PyObject *self, PyObject *args) {
    PyObject *nodes, *black, *white, *place, *idents;
    Py_ssize_t start;
    int size, turn, empties, chain[3] = {0, 0, 0};
    Py_buffer cells;
    if (!PyArg_ParseTuple(args, "O!niw*iippOOOO!", &PyList_Type, &nodes, &start, &size, &cells, &turn, &empties,
                          &chain[1], &chain[2], &black, &white, &place, &PyTuple_Type, &idents))
        return NULL;
    PyObject *result = NULL;
    Board b = {0};
    b.size = size;
    b.n = size * size;
    if (size < 1 || cells.len != b.n || empties < 0 || empties > b.n || turn < 0) {
        PyErr_SetString(PyExc_ValueError, "play_run: the board, the counts and the size do not agree");
        goto done;
    }
    b.cells = cells.buf;
    b.mark = calloc((size_t)b.n, sizeof(unsigned));
    b.stack = malloc(sizeof(int) * (size_t)b.n);
    if (b.mark == NULL || b.stack == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    MoveNames names;
    if (names_open(&names) < 0) goto done;
    Py_ssize_t at = start, count = PyList_GET_SIZE(nodes), last = -1, played = 0;
    int failed = 0, pending = -1;
    for (; at < count && pending < 0; at++) {
        int me = turn % 2 == 0 ? 1 : 2, you = 3 - me;  /* Black first, then turns alternate (GEN-5) */
        PyObject *colour = me == 1 ? black : white;
        int index = -1, what = plain_placement(PyList_GET_ITEM(nodes, at), &names, idents, place, colour, size,
                                               &index);
        if (what == NODE_ERROR) { failed = 1; break; }
        if (what == NODE_EMPTY) continue;
        if (what == NODE_ENDS_RUN || b.cells[index]) break;
        maneuver(&b, index, me);
        empties--;
        turn++;
        played++;
        last = at;
        if (chain[you] || !empties) {
            /* SQU-8: the opponent may still hold the chain of their own turn, or the board is full: the engine
             * judges this turn (SQU-6, SQU-7, SQU-9). */
            pending = index;
            continue;
        }
        chain[me] = new_chain(&b, index, me);
    }
    names_close(&names);
    if (!failed)
        result = Py_BuildValue("nnniiOOi", at, played, last, turn, empties, chain[1] ? Py_True : Py_False,
                               chain[2] ? Py_True : Py_False, pending);
done:
    free(b.mark);
    free(b.stack);
    PyBuffer_Release(&cells);
    return result;
}

static PyMethodDef methods[] = {
    {"play_run", play_run, METH_VARARGS, "Play the plain maneuvers of a line from `start` (see the module)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_squer",
    .m_doc = "The plain maneuvers of Squer, compiled (verifier/rules/squer.py is the plain path).",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC PyInit__squer(void) { return PyModule_Create(&module); }
