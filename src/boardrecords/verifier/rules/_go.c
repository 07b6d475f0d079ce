/* The plain plays of Go under the Simplified Ing Rules (verifier/rules/go_ing.py), compiled: a run of a line's
 * nodes that hold a placement and nothing the replay must look at (no setup, no TB/TW marks) is played here in one
 * call, with the same rules: a stone on an empty point (ING-3), opposing strings without liberties removed, then the
 * mover's own (suicide is carried out, ING-3), and no position repeated (ING-4: the hashes of every earlier position,
 * the engine's own set, with its Zobrist keys). The run stops before anything else: a pass, a node with more to it,
 * a move of the wrong colour, an occupied point or a repetition; the engine then plays that node itself and says
 * why a move is refused. The plain-Python engine is the reference; the tests compare both.
 *
 * play_run(nodes, start, size, cells, zobrist_black, zobrist_white, hash, history, black, white, black_to_move,
 *          place, idents[, log])
 *   nodes: the line (list of Node), from index `start`; cells: bytearray of the board (0 empty, 1 Black, 2 White),
 *   changed in place; zobrist_*: each point's key, size * size uint64 in native order; history: the set of the
 *   hashes of earlier positions, added to; black, white: the Colour members; place: MoveKind.PLACE; idents: the
 *   property identifiers that end a run (setup and marks).
 *   Returns (next node index, plays made, index of the last node played or -1, hash, Black to move next, the
 *   opposing stones Black took off, those White took off): a suicide's stones count for the opponent, as in the
 *   engine's `_taken`. With `log` true, two more: the point of every play (int32, native order) and what each took
 *   off (int32: a count, then that many points; a negative count is the mover's own stones, a suicide, the played
 *   point left out), for the watchers that follow a replay (verifier/keys/_follow.c).
 *
 * owners(cells, size): the owner of every point for the area count (ING-6), the engine's `_area` (the plain path).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_plain_moves.h"

typedef struct {
    int size, n;
    unsigned char *cells;
    const uint64_t *zob[3];
    unsigned *mark;
    unsigned gen;
    int *stack, *caught, *group;
    int last_caught, last_suicide;  /* what the last play took off: b->caught[..last_caught), b->group[..last_suicide) */
} Board;

static int neighbours(const Board *b, int p, int out[4]) {
    int s = b->size, col = p % s, row = p / s, k = 0;
    if (col > 0) out[k++] = p - 1;
    if (col < s - 1) out[k++] = p + 1;
    if (row > 0) out[k++] = p - s;
    if (row < s - 1) out[k++] = p + s;
    return k;
}

/* The string of `start` (marked with the current generation) into out[]; returns its size, *libs whether it has a
 * liberty. */
static int flood(Board *b, int start, int *out, int *libs) {
    unsigned char *cells = b->cells;
    int colour = cells[start], top = 0, count = 0, nb[4];
    *libs = 0;
    b->mark[start] = b->gen;
    b->stack[top++] = start;
    while (top) {
        int p = b->stack[--top];
        out[count++] = p;
        int k = neighbours(b, p, nb);
        for (int m = 0; m < k; m++) {
            int q = nb[m];
            if (!cells[q]) *libs = 1;
            else if (cells[q] == colour && b->mark[q] != b->gen) {
                b->mark[q] = b->gen;
                b->stack[top++] = q;
            }
        }
    }
    return count;
}

/* 1: played; 0: refused (occupied or a repeated position; the board is as it was); -1: a Python error. The stones
 * taken off are added to taken[colour that took them]. */
static int play(Board *b, int i, int c, uint64_t *hash, PyObject *history, Py_ssize_t taken[3]) {
    unsigned char *cells = b->cells;
    if (cells[i]) return 0;
    int opp = 3 - c, nb[4], k = neighbours(b, i, nb), ncaught = 0, libs;
    cells[i] = (unsigned char)c;
    uint64_t h = *hash ^ b->zob[c][i];
    b->gen++;
    for (int m = 0; m < k; m++) {
        int j = nb[m];
        if (cells[j] == opp && b->mark[j] != b->gen) {
            int got = flood(b, j, b->caught + ncaught, &libs);
            if (!libs) ncaught += got;
        }
    }
    for (int m = 0; m < ncaught; m++) h ^= b->zob[opp][b->caught[m]];
    int suicide = 0;
    if (!ncaught) {
        b->gen++;
        suicide = flood(b, i, b->group, &libs);
        if (libs) suicide = 0;
        for (int m = 0; m < suicide; m++) h ^= b->zob[c][b->group[m]];
    }
    PyObject *key = PyLong_FromUnsignedLongLong(h);
    if (key == NULL) {
        cells[i] = 0;
        return -1;
    }
    int seen = PySet_Contains(history, key);
    if (seen != 0 || PySet_Add(history, key) < 0) {
        Py_DECREF(key);
        cells[i] = 0;
        return seen == 1 ? 0 : -1;
    }
    Py_DECREF(key);
    for (int m = 0; m < ncaught; m++) cells[b->caught[m]] = 0;
    for (int m = 0; m < suicide; m++) cells[b->group[m]] = 0;
    taken[c] += ncaught;
    taken[opp] += suicide;
    b->last_caught = ncaught;
    b->last_suicide = suicide;
    *hash = h;
    return 1;
}

/* A growing list of int32, the log of a run. */
typedef struct {
    int32_t *items;
    Py_ssize_t len, cap;
} Log;

static int log_add(Log *log, int32_t value) {
    if (log->len == log->cap) {
        Py_ssize_t cap = log->cap ? 2 * log->cap : 256;
        int32_t *items = realloc(log->items, sizeof(int32_t) * (size_t)cap);
        if (items == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        log->items = items;
        log->cap = cap;
    }
    log->items[log->len++] = value;
    return 0;
}

/* The last play in the log: its point in `placed`; in `taken` the count of the stones it took off, then their
 * points (a negative count: the mover's own stones, a suicide, the played point itself left out). */
static int log_play(Log *placed, Log *taken, const Board *b, int i) {
    if (log_add(placed, i) < 0) return -1;
    if (b->last_caught) {
        if (log_add(taken, b->last_caught) < 0) return -1;
        for (int m = 0; m < b->last_caught; m++)
            if (log_add(taken, b->caught[m]) < 0) return -1;
        return 0;
    }
    if (!b->last_suicide) return log_add(taken, 0);
    if (log_add(taken, -(b->last_suicide - 1)) < 0) return -1;
    for (int m = 0; m < b->last_suicide; m++)
        if (b->group[m] != i && log_add(taken, b->group[m]) < 0) return -1;
    return 0;
}

static PyObject *play_run(PyObject *self, PyObject *args) {
    PyObject *nodes, *history, *black, *white, *place, *idents;
    Py_ssize_t start;
    int size, black_next, logged = 0;
    Py_buffer cells, zb, zw;
    unsigned long long hash;
    if (!PyArg_ParseTuple(args, "O!niw*y*y*KO!OOpOO!|p", &PyList_Type, &nodes, &start, &size, &cells, &zb, &zw,
                          &hash, &PySet_Type, &history, &black, &white, &black_next, &place, &PyTuple_Type, &idents,
                          &logged))
        return NULL;
    PyObject *result = NULL;
    Log placed = {0}, taken_log = {0};
    Board b = {0};
    b.size = size;
    b.n = size * size;
    if (size < 1 || cells.len != b.n || zb.len != b.n * 8 || zw.len != b.n * 8) {
        PyErr_SetString(PyExc_ValueError, "play_run: the board, the keys and the size do not agree");
        goto done;
    }
    b.cells = cells.buf;
    b.zob[1] = zb.buf;
    b.zob[2] = zw.buf;
    b.mark = calloc((size_t)b.n, sizeof(unsigned));
    b.stack = malloc(sizeof(int) * (size_t)b.n * 3);
    if (b.mark == NULL || b.stack == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    b.caught = b.stack + b.n;
    b.group = b.stack + 2 * b.n;
    MoveNames names;
    if (names_open(&names) < 0) goto done;
    Py_ssize_t at = start, count = PyList_GET_SIZE(nodes), last = -1, played = 0, taken[3] = {0, 0, 0};
    int failed = 0;
    uint64_t h = hash;
    for (; at < count; at++) {
        int index = -1, what = plain_placement(PyList_GET_ITEM(nodes, at), &names, idents, place,
                                               black_next ? black : white, size, &index);
        if (what == NODE_ERROR) { failed = 1; break; }
        if (what == NODE_EMPTY) continue;
        if (what == NODE_ENDS_RUN) break;
        int r = play(&b, index, black_next ? 1 : 2, &h, history, taken);
        if (r < 0) { failed = 1; break; }
        if (r == 0) break;
        if (logged && log_play(&placed, &taken_log, &b, index) < 0) { failed = 1; break; }
        played++;
        last = at;
        black_next = !black_next;
    }
    names_close(&names);
    if (!failed && logged)
        result = Py_BuildValue("nnnKOnny#y#", at, played, last, (unsigned long long)h,
                               black_next ? Py_True : Py_False, taken[1], taken[2], placed.items ? (const char *)placed.items : "",
                               placed.len * (Py_ssize_t)sizeof(int32_t), taken_log.items ? (const char *)taken_log.items : "",
                               taken_log.len * (Py_ssize_t)sizeof(int32_t));
    else if (!failed)
        result = Py_BuildValue("nnnKOnn", at, played, last, (unsigned long long)h, black_next ? Py_True : Py_False,
                               taken[1], taken[2]);
done:
    free(placed.items);
    free(taken_log.items);
    free(b.mark);
    free(b.stack);
    PyBuffer_Release(&cells);
    PyBuffer_Release(&zb);
    PyBuffer_Release(&zw);
    return result;
}

/* owners(cells, size): the owner of every point for the area count (ING-6), as bytes: a stone's colour on its point,
 * on an empty point BLACK or WHITE when its empty region touches stones of that colour only, else 0. */
static PyObject *owners(PyObject *self, PyObject *args) {
    Py_buffer cells;
    int size;
    if (!PyArg_ParseTuple(args, "y*i", &cells, &size)) return NULL;
    PyObject *result = NULL;
    int n = size * size;
    int *region = NULL;
    unsigned char *seen = NULL;
    if (size < 1 || cells.len != n) {
        PyErr_SetString(PyExc_ValueError, "owners: the board and the size do not agree");
        goto done;
    }
    result = PyBytes_FromStringAndSize(cells.buf, n);
    region = malloc(sizeof(int) * (size_t)n);
    seen = calloc((size_t)n, 1);
    if (result == NULL || region == NULL || seen == NULL) {
        Py_CLEAR(result);
        if (!PyErr_Occurred()) PyErr_NoMemory();
        goto done;
    }
    const unsigned char *board = cells.buf;
    unsigned char *owner = (unsigned char *)PyBytes_AS_STRING(result);
    Board b = {.size = size, .n = n};
    for (int start = 0; start < n; start++) {
        if (board[start] || seen[start]) continue;
        int count = 0, touches = 0, nb[4];
        seen[start] = 1;
        region[count++] = start;
        for (int at = 0; at < count; at++) {
            int k = neighbours(&b, region[at], nb);
            for (int m = 0; m < k; m++) {
                int q = nb[m];
                if (board[q]) touches |= board[q];
                else if (!seen[q]) {
                    seen[q] = 1;
                    region[count++] = q;
                }
            }
        }
        unsigned char code = (unsigned char)(touches == 1 || touches == 2 ? touches : 0);
        for (int at = 0; at < count; at++) owner[region[at]] = code;
    }
done:
    free(region);
    free(seen);
    PyBuffer_Release(&cells);
    return result;
}

static PyMethodDef methods[] = {
    {"play_run", play_run, METH_VARARGS, "Play the plain placements of a line from `start` (see the module)."},
    {"owners", owners, METH_VARARGS, "The owner of every point for the area count (see the function)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_go",
    .m_doc = "The plain plays of Go, compiled (verifier/rules/go_ing.py is the plain path).",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC PyInit__go(void) { return PyModule_Create(&module); }
