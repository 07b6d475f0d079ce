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

/* Whether the node's move may be played here: a bare node, or one whose properties hold none of `idents`. */
static int plain_node(PyObject *node, PyObject *props_name, PyObject *idents) {
    PyObject *props = PyObject_GetAttr(node, props_name);
    if (props == NULL) return -1;
    int plain = 1;
    if (props != Py_None) {
        if (!PyDict_Check(props)) plain = 0;
        else {
            Py_ssize_t count = PyTuple_GET_SIZE(idents);
            for (Py_ssize_t m = 0; m < count && plain; m++) {
                int has = PyDict_Contains(props, PyTuple_GET_ITEM(idents, m));
                if (has < 0) plain = -1;
                else if (has) plain = 0;
            }
        }
    }
    Py_DECREF(props);
    return plain;
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
    PyObject *n_props = PyUnicode_InternFromString("_props"), *n_move = PyUnicode_InternFromString("move");
    PyObject *n_kind = PyUnicode_InternFromString("kind"), *n_colour = PyUnicode_InternFromString("colour");
    PyObject *n_point = PyUnicode_InternFromString("point");
    Py_ssize_t at = start, count = PyList_GET_SIZE(nodes), last = -1, played = 0;
    int failed = 0, pending = -1;
    for (; at < count && pending < 0; at++) {
        PyObject *node = PyList_GET_ITEM(nodes, at);
        int plain = plain_node(node, n_props, idents);
        if (plain < 0) { failed = 1; break; }
        if (!plain) break;
        PyObject *move = PyObject_GetAttr(node, n_move);
        if (move == NULL) { failed = 1; break; }
        if (move == Py_None) {  /* a node with nothing in it: nothing to replay */
            Py_DECREF(move);
            continue;
        }
        int me = turn % 2 == 0 ? 1 : 2, you = 3 - me;  /* Black first, then turns alternate (GEN-5) */
        PyObject *kind = PyObject_GetAttr(move, n_kind), *colour = PyObject_GetAttr(move, n_colour);
        PyObject *point = PyObject_GetAttr(move, n_point);
        Py_DECREF(move);
        int go = 0, index = -1;
        if (kind == NULL || colour == NULL || point == NULL) failed = 1;
        else if (kind == place && colour == (me == 1 ? black : white) && PyTuple_Check(point)
                 && PyTuple_GET_SIZE(point) == 2) {
            long col = PyLong_AsLong(PyTuple_GET_ITEM(point, 0)), row = PyLong_AsLong(PyTuple_GET_ITEM(point, 1));
            if (PyErr_Occurred()) failed = 1;
            else if (col >= 0 && col < size && row >= 0 && row < size && !b.cells[row * size + col]) {
                index = (int)(row * size + col);
                go = 1;
            }
        }
        Py_XDECREF(kind);
        Py_XDECREF(colour);
        Py_XDECREF(point);
        if (failed || !go) break;
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
    Py_DECREF(n_props);
    Py_DECREF(n_move);
    Py_DECREF(n_kind);
    Py_DECREF(n_colour);
    Py_DECREF(n_point);
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
