/* The import's watchers (position_keys.py, patterns.py) following a compiled run of plain plays, compiled: a rules
 * engine's run (verifier/rules/_go.c, `play_run(..., log=True)`) says where each play went and what it took off, and
 * these functions bring the watchers' state up to date from that log in one call instead of a Python step per move.
 * The plain-Python steps are the reference; the tests compare both.
 *
 * The log: `placed`, the point index of every play (int32, native order); `taken`, per play a count and that many
 * point indices (int32): a positive count is the opponent's stones captured, a negative one the mover's own stones
 * removed by a suicide (ING-3), the played point left out (it ends empty too). The plays alternate colours, the
 * first of the run being Black's when `black_first`.
 *
 * keys_run(placed, taken, black_first, frames, zobrist_black, zobrist_white, to_black, to_white, packed)
 *   The position keys (position_keys.py): `zobrist_*` each point's numbers in every frame (points * frames uint64,
 *   frame f of point i at i * frames + f); `to_*` the number of the colour to move (the same in every frame);
 *   `packed` the running keys of every frame before the run (frames uint64, the colour to move left out).
 *   Returns (the keys of the position after each play, the colour to move included: played * frames uint64; the
 *   running keys after the run; the code of each play, colour * points + point, int32).
 *
 * events_run(placed, taken, black_first, points, board, first_ply)
 *   The change list (patterns.py): `board` the watcher's state of every point (bytearray, 0 empty, 1 Black,
 *   2 White), changed in place; `first_ply` the number of the run's first move. Returns (the events, uint32: ply
 *   << 15 | state << 12 | point; the points Black and White came to hold, as little-endian bit masks).
 *
 * canonical(packed, frames): the canonical keys of a line's positions at the end (position_keys.py `_columns`).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define STATE_SHIFT 12
#define PLY_SHIFT 15
#define MARK_B 4
#define MARK_W 5

/* The number of plays in the log, or -1 (an error set) when `taken` does not hold one entry per play. */
static Py_ssize_t check_log(const Py_buffer *placed, const Py_buffer *taken, int points) {
    if (placed->len % 4 || taken->len % 4) {
        PyErr_SetString(PyExc_ValueError, "a run's log is int32");
        return -1;
    }
    Py_ssize_t plays = placed->len / 4, at = 0, items = taken->len / 4;
    const int32_t *p = placed->buf, *t = taken->buf;
    for (Py_ssize_t k = 0; k < plays; k++) {
        if (p[k] < 0 || p[k] >= points || at >= items) goto bad;
        int32_t count = t[at++];
        Py_ssize_t n = count < 0 ? -(Py_ssize_t)count : count;
        if (n > items - at) goto bad;
        for (Py_ssize_t m = 0; m < n; m++)
            if (t[at + m] < 0 || t[at + m] >= points) goto bad;
        at += n;
    }
    if (at != items) goto bad;
    return plays;
bad:
    PyErr_SetString(PyExc_ValueError, "a run's log does not fit the board");
    return -1;
}

static void xor_point(uint64_t *packed, const uint64_t *zob, int frames, int32_t point) {
    const uint64_t *numbers = zob + (Py_ssize_t)point * frames;
    for (int f = 0; f < frames; f++) packed[f] ^= numbers[f];
}

static PyObject *keys_run(PyObject *self, PyObject *args) {
    Py_buffer placed, taken, zb, zw, start;
    int black_first, frames;
    unsigned long long to_black, to_white;
    if (!PyArg_ParseTuple(args, "y*y*piy*y*KKy*", &placed, &taken, &black_first, &frames, &zb, &zw, &to_black,
                          &to_white, &start))
        return NULL;
    PyObject *keys = NULL, *after = NULL, *codes = NULL, *result = NULL;
    uint64_t *packed = NULL;
    if (frames < 1 || zb.len != zw.len || zb.len % (8 * frames) || start.len != 8 * frames) {
        PyErr_SetString(PyExc_ValueError, "keys_run: the numbers and the frames do not agree");
        goto done;
    }
    int points = (int)(zb.len / (8 * frames));
    Py_ssize_t plays = check_log(&placed, &taken, points);
    if (plays < 0) goto done;
    keys = PyBytes_FromStringAndSize(NULL, plays * frames * 8);
    codes = PyBytes_FromStringAndSize(NULL, plays * 4);
    packed = malloc(8 * (size_t)frames);
    if (keys == NULL || codes == NULL || packed == NULL) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        goto done;
    }
    memcpy(packed, start.buf, 8 * (size_t)frames);
    const uint64_t *zob[3] = {NULL, zb.buf, zw.buf};
    const uint64_t to[3] = {0, to_black, to_white};
    const int32_t *p = placed.buf, *t = taken.buf;
    uint64_t *out = (uint64_t *)PyBytes_AS_STRING(keys);
    int32_t *code = (int32_t *)PyBytes_AS_STRING(codes);
    int c = black_first ? 1 : 2;
    Py_ssize_t at = 0;
    for (Py_ssize_t k = 0; k < plays; k++, c = 3 - c) {
        int32_t i = p[k], count = t[at++];
        code[k] = c == 1 ? i : points + i;
        if (count >= 0) {
            xor_point(packed, zob[c], frames, i);
            for (int32_t m = 0; m < count; m++) xor_point(packed, zob[3 - c], frames, t[at++]);
        } else {  /* a suicide: the played point ends empty, and the mover's stones are gone */
            for (int32_t m = 0; m < -count; m++) xor_point(packed, zob[c], frames, t[at++]);
        }
        for (int f = 0; f < frames; f++) out[k * frames + f] = packed[f] ^ to[3 - c];
    }
    after = PyBytes_FromStringAndSize((const char *)packed, 8 * (Py_ssize_t)frames);
    if (after != NULL) result = PyTuple_Pack(3, keys, after, codes);
done:
    Py_XDECREF(keys);
    Py_XDECREF(after);
    Py_XDECREF(codes);
    free(packed);
    PyBuffer_Release(&placed);
    PyBuffer_Release(&taken);
    PyBuffer_Release(&zb);
    PyBuffer_Release(&zw);
    PyBuffer_Release(&start);
    return result;
}

static PyObject *events_run(PyObject *self, PyObject *args) {
    Py_buffer placed, taken, board;
    int black_first, points;
    Py_ssize_t first_ply;
    if (!PyArg_ParseTuple(args, "y*y*piw*n", &placed, &taken, &black_first, &points, &board, &first_ply))
        return NULL;
    PyObject *events = NULL, *ever_b = NULL, *ever_w = NULL, *result = NULL;
    if (points < 1 || board.len != points || first_ply < 1) {
        PyErr_SetString(PyExc_ValueError, "events_run: the board and the points do not agree");
        goto done;
    }
    Py_ssize_t plays = check_log(&placed, &taken, points);
    if (plays < 0) goto done;
    if (first_ply + plays >= ((Py_ssize_t)1 << (32 - PLY_SHIFT))) {
        PyErr_SetString(PyExc_ValueError, "events_run: more moves than a change list numbers");
        goto done;
    }
    /* at most a play, a mark and every point taken off per play */
    Py_ssize_t most = 2 * plays + (taken.len / 4), n = 0, mask_len = (points + 7) / 8;
    events = PyBytes_FromStringAndSize(NULL, most * 4);
    ever_b = PyBytes_FromStringAndSize(NULL, mask_len);
    ever_w = PyBytes_FromStringAndSize(NULL, mask_len);
    if (events == NULL || ever_b == NULL || ever_w == NULL) goto done;
    unsigned char *mask[3] = {NULL, (unsigned char *)PyBytes_AS_STRING(ever_b),
                              (unsigned char *)PyBytes_AS_STRING(ever_w)};
    memset(mask[1], 0, (size_t)mask_len);
    memset(mask[2], 0, (size_t)mask_len);
    unsigned char *cells = board.buf;
    uint32_t *out = (uint32_t *)PyBytes_AS_STRING(events);
    const int32_t *p = placed.buf, *t = taken.buf;
    int c = black_first ? 1 : 2;
    Py_ssize_t at = 0;
    for (Py_ssize_t k = 0; k < plays; k++, c = 3 - c) {
        uint32_t ply = (uint32_t)(first_ply + k) << PLY_SHIFT;
        int32_t i = p[k], count = t[at++];
        /* In the order of the plain step: the played point, the points taken off, the mark of the move. */
        if (count >= 0 && cells[i] != c) {
            cells[i] = (unsigned char)c;
            out[n++] = ply | ((uint32_t)c << STATE_SHIFT) | (uint32_t)i;
            mask[c][i >> 3] |= (unsigned char)(1u << (i & 7));
        }
        int32_t gone = count < 0 ? -count : count;
        for (int32_t m = 0; m < gone; m++) {
            int32_t j = t[at++];
            if (cells[j]) {
                cells[j] = 0;
                out[n++] = ply | (uint32_t)j;
            }
        }
        out[n++] = ply | ((uint32_t)(c == 1 ? MARK_B : MARK_W) << STATE_SHIFT) | (uint32_t)i;
    }
    if (_PyBytes_Resize(&events, n * 4) == 0) result = PyTuple_Pack(3, events, ever_b, ever_w);
done:
    Py_XDECREF(events);
    Py_XDECREF(ever_b);
    Py_XDECREF(ever_w);
    PyBuffer_Release(&placed);
    PyBuffer_Release(&taken);
    PyBuffer_Release(&board);
    return result;
}

/* canonical(packed, frames): the canonical key of every position (the smallest over its frames) from the packed
 * keys of every frame (positions * frames uint64), as (the keys, int64 in native order: the same 64 bits read as
 * signed; the first frame giving each, one byte a position; {position: the frames giving it} where more than one
 * does). */
static PyObject *canonical(PyObject *self, PyObject *args) {
    Py_buffer packed;
    int frames;
    if (!PyArg_ParseTuple(args, "y*i", &packed, &frames)) return NULL;
    PyObject *keys = NULL, *first = NULL, *tied = NULL, *result = NULL;
    if (frames < 1 || frames > 255 || packed.len % (8 * frames)) {
        PyErr_SetString(PyExc_ValueError, "canonical: the keys and the frames do not agree");
        goto done;
    }
    Py_ssize_t count = packed.len / (8 * frames);
    keys = PyBytes_FromStringAndSize(NULL, count * 8);
    first = PyBytes_FromStringAndSize(NULL, count);
    tied = PyDict_New();
    if (keys == NULL || first == NULL || tied == NULL) goto done;
    const uint64_t *values = packed.buf;
    uint64_t *out = (uint64_t *)PyBytes_AS_STRING(keys);
    unsigned char *where = (unsigned char *)PyBytes_AS_STRING(first);
    for (Py_ssize_t k = 0; k < count; k++) {
        const uint64_t *v = values + k * frames;
        int best = 0, ties = 1;
        for (int f = 1; f < frames; f++) {
            if (v[f] < v[best]) {
                best = f;
                ties = 1;
            } else if (v[f] == v[best]) ties++;
        }
        out[k] = v[best];
        where[k] = (unsigned char)best;
        if (ties > 1) {
            PyObject *all = PyTuple_New(ties), *ply = PyLong_FromSsize_t(k);
            if (all == NULL || ply == NULL) {
                Py_XDECREF(all);
                Py_XDECREF(ply);
                goto done;
            }
            for (int f = 0, m = 0; f < frames; f++)
                if (v[f] == v[best]) PyTuple_SET_ITEM(all, m++, PyLong_FromLong(f));
            int rc = PyDict_SetItem(tied, ply, all);
            Py_DECREF(all);
            Py_DECREF(ply);
            if (rc < 0) goto done;
        }
    }
    result = PyTuple_Pack(3, keys, first, tied);
done:
    Py_XDECREF(keys);
    Py_XDECREF(first);
    Py_XDECREF(tied);
    PyBuffer_Release(&packed);
    return result;
}

static PyMethodDef methods[] = {
    {"canonical", canonical, METH_VARARGS, "The canonical keys of positions from their packed keys (see there)."},
    {"keys_run", keys_run, METH_VARARGS, "The position keys after each play of a run's log (see the module)."},
    {"events_run", events_run, METH_VARARGS, "The change list of a run's log (see the module)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_follow",
    .m_doc = "The import's watchers following a compiled run (position_keys.py and patterns.py are the plain path).",
    .m_size = -1,
    .m_methods = methods,
};

PyMODINIT_FUNC PyInit__follow(void) { return PyModule_Create(&module); }
