/* The plain placements of Cation (verifier/rules/cation.py), compiled: a run of a line's nodes that hold a
 * placement and nothing the replay must look at (no setup) is played here in one call, with the same rules as
 * `CationEngine._place`: in situation a (no crosscut on the board, CAT-4) the mover puts a stone of their colour on
 * an empty point, unless it would form a crosscut with the opponent's latest stone (CAT-3, CAT-4); the crosscuts it
 * forms otherwise are added to the engine's set (the opponent then faces situation b); it becomes the latest stone,
 * joins its colour's groups (the engine's union-find, step for step, so the lists end exactly as the engine leaves
 * them), and a completed chain ends the game (CAT-8: the group touches both edges and a flood fill from the first
 * edge reaches the second, as chains.py's `has_chain`).
 * The run stops before anything else: another kind of move (relocation, removal, pass, swap), a move of the wrong
 * colour, a point off the board, an occupied point, a crosscut with the latest stone, a node with setup; and after
 * a placement that forms a crosscut or ends the game. The engine then plays that node itself and says why a move is
 * refused: nothing here raises a rule's error. The plain-Python engine is the reference; the tests compare both.
 * The engine's lists are changed in place, with no copy to and fro: a run costs nothing beyond its placements.
 * Only running out of memory can stop a run midway (the engine is then of no further use).
 *
 * play_run(nodes, start, size, cells, parent, mask, gsize, crosscuts, latest, black_to_move, black, white, place,
 *          idents)
 *   nodes: the line (list of Node), from index `start`; cells: the engine's board (list of int, 0 empty, 1 Black,
 *   2 White); parent, mask, gsize: its union-find (list of int each); crosscuts: its set of crosscut blocks (the
 *   top-left index of each 2x2 block), empty on entry; all four lists and the set are changed in place. latest:
 *   the index of the opponent's latest stone or -1; black, white: the Colour members; place: MoveKind.PLACE;
 *   idents: the property identifiers that end a run (setup).
 *   Returns (next node index, placements made, index of the last node played or -1, the latest stone's index,
 *   Black to move next, whether the last placement formed a crosscut, whether it completed a chain).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>

#include "_plain_moves.h"

typedef struct {
    int size;
    PyObject *cells, *parent, *mask, *gsize;
} Board;

/* The engine's lists hold small ints only: read without checks beyond PyLong_AsLong's (an error shows in
 * PyErr_Occurred, looked at after every placement). */
static inline long get(PyObject *list, Py_ssize_t i) { return PyLong_AsLong(PyList_GET_ITEM(list, i)); }

/* list[i] = v, dropping the list's reference to the old value. */
static inline int set(PyObject *list, Py_ssize_t i, long v) {
    PyObject *o = PyLong_FromLong(v);
    if (o == NULL) return -1;
    PyObject *old = PyList_GET_ITEM(list, i);
    PyList_SET_ITEM(list, i, o);
    Py_DECREF(old);
    return 0;
}

/* The diagonal neighbours of (row, col) that lie on the board, in the order of the engine's tables: for each, the
 * diagonal partner, the two other corners of their 2x2 block, and the block. Returns how many. */
static int diagonals(int size, int row, int col, int out[4][4]) {
    int k = 0;
    for (int dr = -1; dr <= 1; dr += 2)
        for (int dc = -1; dc <= 1; dc += 2) {
            int rr = row + dr, cc = col + dc;
            if (rr < 0 || rr >= size || cc < 0 || cc >= size) continue;
            out[k][0] = rr * size + cc;
            out[k][1] = rr * size + col;
            out[k][2] = row * size + cc;
            out[k][3] = (rr < row ? rr : row) * size + (cc < col ? cc : col);
            k++;
        }
    return k;
}

/* The edges of its colour a point touches (README: edges): 1 the first (row 0 for Black, column 0 for White),
 * 2 the opposite one. */
static inline long edge_bits(int size, int x, int i) {
    int along = x == 1 ? i / size : i % size;
    return (along == 0 ? 1 : 0) | (along == size - 1 ? 2 : 0);
}

/* CAT-8, as chains.py's has_chain: whether stones of `x` join the first edge of their colour to the second.
 * 1 yes, 0 no, -1 a Python error. */
static int has_chain(Board *b, int x) {
    int size = b->size, n = size * size, top = 0, found = 0;
    unsigned char *seen = calloc((size_t)n, 1);
    int *stack = malloc(sizeof(int) * (size_t)n);
    if (seen == NULL || stack == NULL) {
        free(seen);
        free(stack);
        PyErr_NoMemory();
        return -1;
    }
    for (int k = 0; k < size; k++) {
        int i = x == 1 ? k : k * size;
        if (get(b->cells, i) == x) {
            seen[i] = 1;
            stack[top++] = i;
        }
    }
    while (top && !found) {
        int i = stack[--top], row = i / size, col = i % size;
        if ((x == 1 ? row : col) == size - 1) {
            found = 1;
            break;
        }
        int nb[4], k = 0;
        if (row > 0) nb[k++] = i - size;
        if (row < size - 1) nb[k++] = i + size;
        if (col > 0) nb[k++] = i - 1;
        if (col < size - 1) nb[k++] = i + 1;
        for (int m = 0; m < k; m++) {
            int j = nb[m];
            if (!seen[j] && get(b->cells, j) == x) {
                seen[j] = 1;
                stack[top++] = j;
            }
        }
    }
    free(seen);
    free(stack);
    return PyErr_Occurred() ? -1 : found;
}

/* The engine's `_join`: the new stone of `x` on `i` joins its colour's groups (union by size, find with path
 * halving, neighbours up, left, right, down). Returns the edge bits of its group, or -1 on a Python error. */
static long join(Board *b, int i, int x) {
    int size = b->size, row = i / size, col = i % size, nb[4], k = 0;
    PyObject *parent = b->parent, *mask = b->mask, *gsize = b->gsize;
    if (row > 0) nb[k++] = i - size;
    if (col > 0) nb[k++] = i - 1;
    if (col < size - 1) nb[k++] = i + 1;
    if (row < size - 1) nb[k++] = i + size;
    long root = i, m = edge_bits(size, x, i), s = 1;
    if (set(parent, i, i) < 0) return -1;
    for (int q = 0; q < k; q++) {
        int j = nb[q];
        if (get(b->cells, j) != x) continue;
        long r = j, up;
        while ((up = get(parent, r)) != r) {
            long halved = get(parent, up);
            if (set(parent, r, halved) < 0) return -1;
            r = halved;
        }
        if (r == root) continue;
        long rsize = get(gsize, r);
        if (rsize >= s) {
            if (set(parent, root, r) < 0) return -1;
            root = r;
        } else if (set(parent, r, root) < 0) return -1;
        m |= get(mask, r);
        s += rsize;
    }
    if (set(mask, root, m) < 0 || set(gsize, root, s) < 0) return -1;
    return PyErr_Occurred() ? -1 : m;
}

static PyObject *play_run(PyObject *self, PyObject *args) {
    PyObject *nodes, *cc, *black, *white, *place, *idents;
    Py_ssize_t start;
    int size, latest, black_next;
    Board b;
    if (!PyArg_ParseTuple(args, "O!niO!O!O!O!O!ipOOOO!", &PyList_Type, &nodes, &start, &size, &PyList_Type,
                          &b.cells, &PyList_Type, &b.parent, &PyList_Type, &b.mask, &PyList_Type, &b.gsize,
                          &PySet_Type, &cc, &latest, &black_next, &black, &white, &place, &PyTuple_Type, &idents))
        return NULL;
    b.size = size;
    Py_ssize_t n = (Py_ssize_t)size * size;
    if (size < 3 || size > 52 || PyList_GET_SIZE(b.cells) != n || PyList_GET_SIZE(b.parent) != n
        || PyList_GET_SIZE(b.mask) != n || PyList_GET_SIZE(b.gsize) != n || latest < -1 || latest >= n) {
        PyErr_SetString(PyExc_ValueError, "play_run: the board, its groups and the size do not agree");
        return NULL;
    }
    MoveNames names;
    if (names_open(&names) < 0) return NULL;
    Py_ssize_t at = start, count = PyList_GET_SIZE(nodes), last = -1, played = 0;
    int failed = 0, crosscut = 0, chain = 0;
    for (; at < count; at++) {
        int i = -1, what = plain_placement(PyList_GET_ITEM(nodes, at), &names, idents, place,
                                           black_next ? black : white, size, &i);
        if (what == NODE_ERROR) { failed = 1; break; }
        if (what == NODE_EMPTY) continue;
        if (what == NODE_ENDS_RUN || get(b.cells, i) != 0) break;  /* not a placement of the mover, or occupied */
        int x = black_next ? 1 : 2, y = 3 - x, row = i / size, col = i % size, diag[4][4];
        int k = diagonals(size, row, col, diag), refused = 0;
        long cd[4], ca[4], cb[4];
        for (int q = 0; q < k; q++) {
            cd[q] = get(b.cells, diag[q][0]);
            ca[q] = get(b.cells, diag[q][1]);
            cb[q] = get(b.cells, diag[q][2]);
            /* CAT-4: with no crosscut on the board, any crosscut the stone makes contains it; it may not also
             * contain the opponent's latest stone (CAT-3). */
            if (latest >= 0 && (diag[q][1] == latest || diag[q][2] == latest) && cd[q] == x && ca[q] == y
                && cb[q] == y)
                refused = 1;
        }
        if (PyErr_Occurred()) { failed = 1; break; }
        if (refused) break;
        if (set(b.cells, i, x) < 0) { failed = 1; break; }
        for (int q = 0; q < k && !failed; q++)
            if (cd[q] == x && ca[q] == y && cb[q] == y) {
                /* CAT-4: a crosscut without the latest stone; the opponent faces situation b (CAT-6). */
                PyObject *block = PyLong_FromLong(diag[q][3]);
                if (block == NULL || PySet_Add(cc, block) < 0) failed = 1;
                Py_XDECREF(block);
                crosscut = 1;
            }
        if (failed) break;
        latest = i;  /* CAT-3 */
        played++;
        last = at;
        black_next = !black_next;
        long m = join(&b, i, x);
        if (m < 0) { failed = 1; break; }
        if (m == 3) {  /* CAT-8: only the mover can complete a chain */
            int r = has_chain(&b, x);
            if (r < 0) { failed = 1; break; }
            chain = r;
        }
        if (crosscut || chain) {  /* the engine takes over: situation b, or the end of the game */
            at++;
            break;
        }
    }
    names_close(&names);
    if (failed) return NULL;
    return Py_BuildValue("nnniOOO", at, played, last, latest, black_next ? Py_True : Py_False,
                         crosscut ? Py_True : Py_False, chain ? Py_True : Py_False);
}

static PyMethodDef methods[] = {
    {"play_run", play_run, METH_VARARGS, "Play the plain placements of a line from `start` (see the module)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_cation",
    .m_doc = "The plain placements of Cation, compiled (verifier/rules/cation.py is the plain path).",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC PyInit__cation(void) { return PyModule_Create(&module); }
