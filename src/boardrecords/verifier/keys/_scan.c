/* The pattern scan of verifier/keys/scan.py, compiled: the same prefilter (shift-and-AND of the masks of the points
 * each colour ever held) and the same replay of change lists (a count of the points each placement still misses),
 * for many lines per call. The plain-Python path in verifier/keys/scan.py is the reference; the tests compare both
 * with the brute-force search. docs/patterns.md describes the design.
 *
 * An event is a little-endian uint32: ply << 15 | state << 12 | point. States 0-2 are the board's (empty, Black,
 * White); 4 and 5 mark where the mover's stone went.
 *
 * The same pass gives each appearance its continuation in the region (the first move afterwards whose stone went
 * into the placement's rectangle, `first_in_region` of verifier/keys/patterns.py): an appearance waits on a list at
 * each point of its region until a move lands on one of them, so a change list is read once.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <limits.h>
#include <string.h>

#define IDX_MASK 0xFFFu
#define STATE_SHIFT 12
#define PLY_SHIFT 15
#define MARK_B 4
#define BY_PLACE_POINTS 25

typedef struct {
    int nstones;
    int *shift;   /* each stone's place in the rectangle (row * size + column) */
    int *colour;  /* 1 Black, 2 White */
    uint64_t *valid;  /* the offsets where the rectangle fits */
    int *index;   /* offset bit -> placement, -1 elsewhere */
} Family;

typedef struct {
    PyObject_HEAD
    int size, points, words, nplace, nfam;
    Family *fam;
    /* placement k needs need_point/need_state[need_start[k] .. need_start[k + 1]): its stones first, then from
     * empty_start[k] its empty points */
    int *need_start, *empty_start;
    int *need_point, *need_state;
    /* scratch for one line, sized once */
    uint64_t *black, *white, *tmp;
    int *cand, *stamp, ncand, game;
    int *missing, *standing, *dirty_stamp, *dirty;
    /* point * 3 + colour -> the candidates that need a stone of that colour there (a linked list) */
    int *head, *next, *entry;
    int *touched, ntouched;
    /* A placement is *active* while all its stones stand. Only then does it count the points it needs empty that
     * are not (`blocked`): those counts would cost a visit to most placements at every stone placed, since most
     * points of a shape are empty ones. Each needed empty point of an active placement is a node (its index in
     * need_point) in the doubly linked list of its point. */
    int *blocked, *act_head, *act_prev, *act_next, *need_k;
    unsigned char *board;
    /* placement k's region (its rectangle) is region_point[region_start[k] .. region_start[k + 1]) */
    int *region_start, *region_point;
    /* the appearances still waiting for a move in their region: at each point a list of nodes (an appearance
     * each, `wait_app`, linked by `wait_next`), from a pool refilled for each line */
    int *wait_head, *wait_app, *wait_next;
    Py_ssize_t nwait, wait_cap;
    /* With large regions (a corner, the whole board: `by_place`) an appearance would put a node at each of tens or
     * hundreds of points, while only a few appearances wait at any time: then the waiting appearances are one list
     * (`pend`), and a move tests each against its placement's region (`region_mask`, words per placement). */
    int by_place;
    uint64_t *region_mask;
    int *pend;
    Py_ssize_t npend, pend_cap;
} Scanner;

static void scanner_free_arrays(Scanner *s) {
    if (s->fam) {
        for (int f = 0; f < s->nfam; f++) {
            PyMem_Free(s->fam[f].shift);
            PyMem_Free(s->fam[f].colour);
            PyMem_Free(s->fam[f].valid);
            PyMem_Free(s->fam[f].index);
        }
        PyMem_Free(s->fam);
        s->fam = NULL;
    }
    void **arrays[] = {(void **)&s->need_start, (void **)&s->empty_start, (void **)&s->need_point, (void **)&s->need_state,
                       (void **)&s->black, (void **)&s->white, (void **)&s->tmp, (void **)&s->cand,
                       (void **)&s->stamp, (void **)&s->missing, (void **)&s->standing, (void **)&s->dirty_stamp,
                       (void **)&s->dirty, (void **)&s->head, (void **)&s->next, (void **)&s->entry,
                       (void **)&s->touched, (void **)&s->board, (void **)&s->blocked, (void **)&s->act_head,
                       (void **)&s->act_prev, (void **)&s->act_next, (void **)&s->need_k,
                       (void **)&s->region_start, (void **)&s->region_point, (void **)&s->wait_head};
    for (size_t a = 0; a < sizeof arrays / sizeof arrays[0]; a++) {
        PyMem_Free(*arrays[a]);
        *arrays[a] = NULL;
    }
    PyMem_RawFree(s->wait_app);  /* grown during a replay, without the GIL: the raw allocator's */
    PyMem_RawFree(s->wait_next);
    s->wait_app = s->wait_next = NULL;
    s->nwait = s->wait_cap = 0;
    PyMem_Free(s->region_mask);
    s->region_mask = NULL;
    PyMem_RawFree(s->pend);
    s->pend = NULL;
    s->npend = s->pend_cap = 0;
}

static void scanner_dealloc(Scanner *s) {
    scanner_free_arrays(s);
    Py_TYPE(s)->tp_free((PyObject *)s);
}

static void *zalloc(Py_ssize_t n, size_t each) {
    void *p = PyMem_Calloc(n > 0 ? (size_t)n : 1, each);
    if (p == NULL) PyErr_NoMemory();
    return p;
}

/* A mask stored as little-endian bytes (as short as its highest bit allows). */
static int mask_from_bytes(PyObject *v, uint64_t *out, int words) {
    Py_buffer view;
    if (PyObject_GetBuffer(v, &view, PyBUF_SIMPLE) < 0) return -1;
    memset(out, 0, sizeof(uint64_t) * (size_t)words);
    const unsigned char *p = view.buf;
    Py_ssize_t n = view.len < (Py_ssize_t)words * 8 ? view.len : (Py_ssize_t)words * 8;
    for (Py_ssize_t b = 0; b < n; b++) out[b >> 3] |= (uint64_t)p[b] << (8 * (b & 7));
    PyBuffer_Release(&view);
    return 0;
}

static int get_int(PyObject *seq, Py_ssize_t i, int *out) {
    PyObject *v = PySequence_GetItem(seq, i);
    if (v == NULL) return -1;
    long x = PyLong_AsLong(v);
    Py_DECREF(v);
    if (x == -1 && PyErr_Occurred()) return -1;
    *out = (int)x;
    return 0;
}

/* start[k]: where sequence k of `seqs` (n of them) begins in one flat array; start[n] the total, returned (-1 on
 * an error). */
static Py_ssize_t flat_starts(PyObject *seqs, Py_ssize_t n, int **start) {
    *start = zalloc(n + 1, sizeof(int));
    if (*start == NULL) return -1;
    Py_ssize_t total = 0;
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *item = PySequence_GetItem(seqs, k);
        Py_ssize_t m = item ? PySequence_Length(item) : -1;
        Py_XDECREF(item);
        if (m < 0) return -1;
        (*start)[k] = (int)total;
        total += m;
    }
    (*start)[n] = (int)total;
    return total;
}

/* Each placement's region (a sequence of point indices, one per placement) into region_start/region_point. */
static int load_regions(Scanner *s, PyObject *regions) {
    Py_ssize_t n = PySequence_Length(regions);
    if (n < 0) return -1;
    if (n != s->nplace) {
        PyErr_SetString(PyExc_ValueError, "one region for each placement");
        return -1;
    }
    Py_ssize_t total = flat_starts(regions, n, &s->region_start);
    if (total < 0) return -1;
    s->region_point = zalloc(total, sizeof(int));
    if (!s->region_point) return -1;
    for (Py_ssize_t k = 0; k < n; k++) {
        PyObject *region = PySequence_GetItem(regions, k);
        if (region == NULL) return -1;
        int bad = 0;
        for (int j = s->region_start[k]; !bad && j < s->region_start[k + 1]; j++) {
            bad = get_int(region, j - s->region_start[k], &s->region_point[j]) < 0;
            if (!bad && (s->region_point[j] < 0 || s->region_point[j] >= s->points)) {
                PyErr_SetString(PyExc_ValueError, "a point of a region off the board");
                bad = 1;
            }
        }
        Py_DECREF(region);
        if (bad) return -1;
    }
    /* A region of BY_PLACE_POINTS points or more on average: the waiting appearances in one list (see Scanner) */
    s->by_place = n > 0 && total >= (Py_ssize_t)BY_PLACE_POINTS * n;
    if (s->by_place) {
        s->region_mask = zalloc(n * s->words, sizeof(uint64_t));
        if (!s->region_mask) return -1;
        for (Py_ssize_t k = 0; k < n; k++)
            for (int j = s->region_start[k]; j < s->region_start[k + 1]; j++) {
                int i = s->region_point[j];
                s->region_mask[k * s->words + (i >> 6)] |= (uint64_t)1 << (i & 63);
            }
    }
    return 0;
}

/* Scanner(size, families, needs, regions): families as Prefilter.families (stones [(shift, colour)], the valid
 * mask as little-endian bytes, {offset bit: placement}); needs: each placement's ((point, state), ...); regions:
 * each placement's points (region_points of verifier/keys/patterns.py). */
static int scanner_init(Scanner *s, PyObject *args, PyObject *kwds) {
    int size;
    PyObject *families, *needs, *regions;
    static char *kwlist[] = {"size", "families", "needs", "regions", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iOOO", kwlist, &size, &families, &needs, &regions)) return -1;
    if (size < 1 || size > 64) {
        PyErr_SetString(PyExc_ValueError, "boards up to 64x64");
        return -1;
    }
    scanner_free_arrays(s);
    s->size = size;
    s->points = size * size;
    s->words = (s->points + 63) / 64;
    Py_ssize_t nplace = PySequence_Length(needs), nfam = PySequence_Length(families);
    if (nplace < 0 || nfam < 0) return -1;
    s->nplace = (int)nplace;
    s->nfam = (int)nfam;

    Py_ssize_t total = flat_starts(needs, nplace, &s->need_start);
    if (total < 0) return -1;
    s->need_point = zalloc(total, sizeof(int));
    s->need_state = zalloc(total, sizeof(int));
    if (!s->need_point || !s->need_state) return -1;
    for (Py_ssize_t k = 0; k < nplace; k++) {
        PyObject *need = PySequence_GetItem(needs, k);
        if (need == NULL) return -1;
        for (int j = s->need_start[k]; j < s->need_start[k + 1]; j++) {
            PyObject *pair = PySequence_GetItem(need, j - s->need_start[k]);
            int bad = pair == NULL || get_int(pair, 0, &s->need_point[j]) < 0
                      || get_int(pair, 1, &s->need_state[j]) < 0;
            Py_XDECREF(pair);
            if (!bad && (s->need_point[j] < 0 || s->need_point[j] >= s->points || s->need_state[j] < 0
                         || s->need_state[j] > 2)) {
                PyErr_SetString(PyExc_ValueError, "a needed point off the board or a state that is not 0-2");
                bad = 1;
            }
            if (bad) {
                Py_DECREF(need);
                return -1;
            }
        }
        Py_DECREF(need);
    }
    s->empty_start = zalloc(nplace, sizeof(int));
    int *point = zalloc(s->points, sizeof(int)), *state = zalloc(s->points, sizeof(int));
    if (!s->empty_start || !point || !state) {
        PyMem_Free(point);
        PyMem_Free(state);
        return -1;
    }
    for (Py_ssize_t k = 0; k < nplace; k++) {
        int n = 0, a = s->need_start[k], b = s->need_start[k + 1];
        for (int pass = 0; pass < 2; pass++) {
            if (pass) s->empty_start[k] = a + n;
            for (int j = a; j < b && n < s->points; j++) {
                if ((s->need_state[j] == 0) == pass) {
                    point[n] = s->need_point[j];
                    state[n++] = s->need_state[j];
                }
            }
        }
        memcpy(s->need_point + a, point, sizeof(int) * (size_t)(b - a));
        memcpy(s->need_state + a, state, sizeof(int) * (size_t)(b - a));
    }
    PyMem_Free(point);
    PyMem_Free(state);

    s->fam = zalloc(nfam, sizeof(Family));
    if (!s->fam) return -1;
    for (Py_ssize_t f = 0; f < nfam; f++) {
        Family *fa = &s->fam[f];
        PyObject *item = PySequence_GetItem(families, f);
        if (item == NULL) return -1;
        PyObject *stones = PySequence_GetItem(item, 0), *valid = PySequence_GetItem(item, 1),
                 *index = PySequence_GetItem(item, 2);
        Py_DECREF(item);
        int ok = stones && valid && index && PyDict_Check(index);
        if (ok) {
            Py_ssize_t n = PySequence_Length(stones);
            ok = n >= 0;
            fa->nstones = (int)n;
            fa->shift = zalloc(n, sizeof(int));
            fa->colour = zalloc(n, sizeof(int));
            fa->valid = zalloc(s->words, sizeof(uint64_t));
            fa->index = zalloc(s->points, sizeof(int));
            ok = ok && fa->shift && fa->colour && fa->valid && fa->index;
            for (Py_ssize_t j = 0; ok && j < n; j++) {
                PyObject *st = PySequence_GetItem(stones, j);
                ok = st && get_int(st, 0, &fa->shift[j]) == 0 && get_int(st, 1, &fa->colour[j]) == 0;
                ok = ok && fa->shift[j] >= 0 && fa->shift[j] < s->points && (fa->colour[j] == 1 || fa->colour[j] == 2);
                Py_XDECREF(st);
            }
            ok = ok && mask_from_bytes(valid, fa->valid, s->words) == 0;
            for (int i = 0; ok && i < s->points; i++) fa->index[i] = -1;
            PyObject *key, *value;
            Py_ssize_t pos = 0;
            while (ok && PyDict_Next(index, &pos, &key, &value)) {
                long bit = PyLong_AsLong(key), k = PyLong_AsLong(value);
                ok = !PyErr_Occurred() && bit >= 0 && bit < s->points && k >= 0 && k < nplace;
                if (ok) fa->index[bit] = (int)k;
            }
            if (!ok && !PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a prefilter family out of range");
        }
        Py_XDECREF(stones);
        Py_XDECREF(valid);
        Py_XDECREF(index);
        if (!ok) return -1;
    }

    s->black = zalloc(s->words, sizeof(uint64_t));
    s->white = zalloc(s->words, sizeof(uint64_t));
    s->tmp = zalloc(s->words, sizeof(uint64_t));
    s->cand = zalloc(nplace, sizeof(int));
    s->stamp = zalloc(nplace, sizeof(int));
    s->missing = zalloc(nplace, sizeof(int));
    s->standing = zalloc(nplace, sizeof(int));
    s->dirty_stamp = zalloc(nplace, sizeof(int));
    s->dirty = zalloc(nplace, sizeof(int));
    s->head = zalloc((Py_ssize_t)s->points * 3, sizeof(int));
    s->next = zalloc(total, sizeof(int));
    s->entry = zalloc(total, sizeof(int));
    s->touched = zalloc(total, sizeof(int));
    s->board = zalloc(s->points, 1);
    s->blocked = zalloc(nplace, sizeof(int));
    s->act_head = zalloc(s->points, sizeof(int));
    s->act_prev = zalloc(total, sizeof(int));
    s->act_next = zalloc(total, sizeof(int));
    s->need_k = zalloc(total, sizeof(int));
    s->wait_head = zalloc(s->points, sizeof(int));
    if (!s->wait_head || load_regions(s, regions) < 0) return -1;
    if (!s->black || !s->white || !s->tmp || !s->cand || !s->stamp || !s->missing || !s->standing
        || !s->dirty_stamp || !s->dirty || !s->head || !s->next || !s->entry || !s->touched || !s->board
        || !s->blocked || !s->act_head || !s->act_prev || !s->act_next || !s->need_k)
        return -1;
    for (int k = 0; k < s->nplace; k++)
        for (int j = s->need_start[k]; j < s->need_start[k + 1]; j++) s->need_k[j] = k;
    for (int i = 0; i < s->points; i++) s->act_head[i] = -1;
    for (int i = 0; i < s->points * 3; i++) s->head[i] = -1;
    for (int k = 0; k < s->nplace; k++) s->stamp[k] = s->dirty_stamp[k] = -1;
    s->game = 0;
    return 0;
}

/* tmp = m >> shift (multi-word, little-endian words) */
static void shift_right(const uint64_t *m, int shift, uint64_t *tmp, int words) {
    int q = shift >> 6, r = shift & 63;
    for (int w = 0; w < words; w++) {
        uint64_t lo = w + q < words ? m[w + q] : 0;
        uint64_t hi = w + q + 1 < words ? m[w + q + 1] : 0;
        tmp[w] = r ? (lo >> r) | (hi << (64 - r)) : lo;
    }
}

/* The placements that the masks allow, into s->cand (s->ncand of them, in no order). */
static void prefilter(Scanner *s) {
    s->game++;
    s->ncand = 0;
    uint64_t m[64];
    for (int f = 0; f < s->nfam; f++) {
        Family *fa = &s->fam[f];
        int any = 0;
        memcpy(m, fa->valid, sizeof(uint64_t) * (size_t)s->words);
        for (int j = 0; j < fa->nstones; j++) {
            shift_right(fa->colour[j] == 1 ? s->black : s->white, fa->shift[j], s->tmp, s->words);
            any = 0;
            for (int w = 0; w < s->words; w++) {
                m[w] &= s->tmp[w];
                any |= m[w] != 0;
            }
            if (!any) break;
        }
        if (fa->nstones == 0) any = 1;
        if (!any) continue;
        for (int w = 0; w < s->words; w++) {
            uint64_t x = m[w];
            while (x) {
                int bit = w * 64 + __builtin_ctzll(x);
                x &= x - 1;
                int k = fa->index[bit];
                if (k >= 0 && s->stamp[k] != s->game) {
                    s->stamp[k] = s->game;
                    s->cand[s->ncand++] = k;
                }
            }
        }
    }
}

static int load_masks(Scanner *s, PyObject *row, Py_ssize_t col) {
    PyObject *b = PySequence_GetItem(row, col), *w = b ? PySequence_GetItem(row, col + 1) : NULL;
    int ok = b && w && mask_from_bytes(b, s->black, s->words) == 0 && mask_from_bytes(w, s->white, s->words) == 0;
    Py_XDECREF(b);
    Py_XDECREF(w);
    return ok ? 0 : -1;
}

/* possible(rows): the first item (the id) of each row (id, black mask, white mask, ...) whose masks allow some
 * placement. */
static PyObject *scanner_possible(Scanner *s, PyObject *rows) {
    PyObject *it = PyObject_GetIter(rows), *out = PyList_New(0), *row;
    if (it == NULL || out == NULL) goto fail;
    while ((row = PyIter_Next(it)) != NULL) {
        if (load_masks(s, row, 1) < 0) {
            Py_DECREF(row);
            goto fail;
        }
        prefilter(s);
        if (s->ncand) {
            PyObject *id = PySequence_GetItem(row, 0);
            if (id == NULL || PyList_Append(out, id) < 0) {
                Py_XDECREF(id);
                Py_DECREF(row);
                goto fail;
            }
            Py_DECREF(id);
        }
        Py_DECREF(row);
    }
    if (PyErr_Occurred()) goto fail;
    Py_DECREF(it);
    return out;
fail:
    Py_XDECREF(it);
    Py_XDECREF(out);
    return NULL;
}

static int cmp_int(const void *a, const void *b) {
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* The appearances of one line: where each began (ply, placement), the move right after it (point, colour) and its
 * continuation in the region (the move's number, point, colour; -1, -1, 0 when none came). */
#define FOUND_ARRAYS 7
typedef struct {
    int *a[FOUND_ARRAYS];
    Py_ssize_t n, cap;
} Found;
enum { F_PLY, F_K, F_POINT, F_COLOUR, F_RPLY, F_RPOINT, F_RCOLOUR };

/* The replay runs without the GIL (so that a server's other threads go on meanwhile): these arrays are the raw
 * allocator's, and running out of memory is reported by the caller once it holds the GIL again. */
static int found_add(Found *f, int ply, int k) {
    if (f->n == f->cap) {
        Py_ssize_t cap = f->cap ? f->cap * 2 : 16;
        for (int a = 0; a < FOUND_ARRAYS; a++) {
            int *p = PyMem_RawRealloc(f->a[a], (size_t)cap * sizeof(int));
            if (p == NULL) return -1;
            f->a[a] = p;
        }
        f->cap = cap;
    }
    int values[FOUND_ARRAYS] = {ply, k, -1, 0, -1, -1, 0};
    for (int a = 0; a < FOUND_ARRAYS; a++) f->a[a][f->n] = values[a];
    f->n++;
    return 0;
}

static void found_free(Found *f) {
    for (int a = 0; a < FOUND_ARRAYS; a++) PyMem_RawFree(f->a[a]);
}

/* Appearance `a` (of placement k) waits for a move at each point of k's region (or, `by_place`, in the one list). */
static int wait_region(Scanner *s, int k, int a) {
    if (s->by_place) {
        if (s->npend == s->pend_cap) {
            Py_ssize_t cap = s->pend_cap ? s->pend_cap * 2 : 64;
            int *pend = PyMem_RawRealloc(s->pend, (size_t)cap * sizeof(int));
            if (pend == NULL) return -1;  /* reported by the caller with the GIL held (found_add) */
            s->pend = pend;
            s->pend_cap = cap;
        }
        s->pend[s->npend++] = a;
        return 0;
    }
    Py_ssize_t need = s->nwait + (s->region_start[k + 1] - s->region_start[k]);
    if (need > s->wait_cap) {
        Py_ssize_t cap = s->wait_cap ? s->wait_cap : 64;
        while (cap < need) cap *= 2;
        int *app = PyMem_RawRealloc(s->wait_app, (size_t)cap * sizeof(int));
        if (app == NULL) return -1;  /* reported by the caller with the GIL held (found_add) */
        s->wait_app = app;
        int *next = PyMem_RawRealloc(s->wait_next, (size_t)cap * sizeof(int));
        if (next == NULL) return -1;
        s->wait_next = next;
        s->wait_cap = cap;
    }
    for (int j = s->region_start[k]; j < s->region_start[k + 1]; j++) {
        int i = s->region_point[j];
        s->wait_app[s->nwait] = a;
        s->wait_next[s->nwait] = s->wait_head[i];
        s->wait_head[i] = (int)s->nwait++;
    }
    return 0;
}

/* A move of `ply` put a stone of `colour` on point i: the first move in the region of every appearance waiting
 * there (the others it waits on are left in their lists, and skipped once it has one). */
static void arrive(Scanner *s, Found *f, int ply, int i, int colour) {
    if (s->by_place) {
        const uint64_t bit = (uint64_t)1 << (i & 63);
        for (Py_ssize_t j = 0; j < s->npend;) {
            int a = s->pend[j];
            if ((s->region_mask[(Py_ssize_t)f->a[F_K][a] * s->words + (i >> 6)] & bit) && f->a[F_PLY][a] < ply) {
                f->a[F_RPLY][a] = ply;
                f->a[F_RPOINT][a] = i;
                f->a[F_RCOLOUR][a] = colour;
                s->pend[j] = s->pend[--s->npend];  /* the order of the list does not matter */
            } else {
                j++;
            }
        }
        return;
    }
    for (int x = s->wait_head[i]; x >= 0; x = s->wait_next[x]) {
        int a = s->wait_app[x];
        if (f->a[F_RPLY][a] < 0 && f->a[F_PLY][a] < ply) {
            f->a[F_RPLY][a] = ply;
            f->a[F_RPOINT][a] = i;
            f->a[F_RCOLOUR][a] = colour;
        }
    }
    s->wait_head[i] = -1;
}

/* The placements whose count changed during `ply`: those that now stand and did not begin an appearance, in
 * placement order (as the plain path sorts them). All of one settle have the same ply: only their placements are
 * sorted. */
static int settle(Scanner *s, int ply, int *ndirty, Found *f) {
    int n = *ndirty;
    Py_ssize_t first = f->n;
    for (int j = 0; j < n; j++) {
        int k = s->dirty[j];
        s->dirty_stamp[k] = -1;
        if (s->missing[k] == 0 && s->blocked[k] == 0) {
            if (!s->standing[k]) {
                s->standing[k] = 1;
                if (found_add(f, ply, k) < 0) return -1;
            }
        } else {
            s->standing[k] = 0;
        }
    }
    qsort(f->a[F_K] + first, (size_t)(f->n - first), sizeof(int), cmp_int);
    for (Py_ssize_t a = first; a < f->n; a++)
        if (wait_region(s, f->a[F_K][a], (int)a) < 0) return -1;
    *ndirty = 0;
    return 0;
}

/* Only a placement that stood at the last settle (it may break) or stands now (it may begin an appearance) needs a
 * look at the end of the move: one that comes and goes within a move never stood. */
static inline void mark_dirty(Scanner *s, int k, int *ndirty) {
    if (s->dirty_stamp[k] != 0 && (s->standing[k] || (s->missing[k] == 0 && s->blocked[k] == 0))) {
        s->dirty_stamp[k] = 0;
        s->dirty[(*ndirty)++] = k;
    }
}

/* All the stones of placement k stand: count its needed empty points that hold a stone, and follow them. */
static void activate(Scanner *s, int k) {
    int n = 0;
    for (int j = s->empty_start[k]; j < s->need_start[k + 1]; j++) {
        int i = s->need_point[j];
        n += s->board[i] != 0;
        s->act_prev[j] = -1;
        s->act_next[j] = s->act_head[i];
        if (s->act_head[i] >= 0) s->act_prev[s->act_head[i]] = j;
        s->act_head[i] = j;
    }
    s->blocked[k] = n;
}

static void deactivate(Scanner *s, int k) {
    for (int j = s->empty_start[k]; j < s->need_start[k + 1]; j++) {
        int prev = s->act_prev[j], next = s->act_next[j];
        if (prev >= 0) s->act_next[prev] = next;
        else s->act_head[s->need_point[j]] = next;
        if (next >= 0) s->act_prev[next] = prev;
    }
}

/* The appearances of the candidate placements in one change list, with the move after each (where the next
 * move's stone went, if that move put one). A candidate stands when its stones all stand (`missing` 0) and its
 * needed empty points are empty (`blocked` 0). */
static int replay(Scanner *s, const unsigned char *data, Py_ssize_t len, Found *f) {
    int used = 0, ndirty = 0;
    s->ntouched = 0;
    s->nwait = 0;
    s->npend = 0;
    memset(s->board, 0, (size_t)s->points);
    for (int i = 0; i < s->points; i++) s->wait_head[i] = -1;
    for (int c = 0; c < s->ncand; c++) {
        int k = s->cand[c], n = 0;
        for (int j = s->need_start[k]; j < s->empty_start[k]; j++) {
            int key = s->need_point[j] * 3 + s->need_state[j];
            if (s->head[key] < 0) s->touched[s->ntouched++] = key;
            s->entry[used] = k;
            s->next[used] = s->head[key];
            s->head[key] = used++;
            n++;
        }
        s->missing[k] = n;
        s->standing[k] = 0;
        s->dirty_stamp[k] = -1;
        if (n == 0) {
            activate(s, k);
            mark_dirty(s, k, &ndirty);  /* it may stand at the start; the others cannot until a stone comes */
        }
    }
    Py_ssize_t since = 0;  /* appearances from here on began at the last settled ply */
    int ply = 0, rc = 0;
    for (Py_ssize_t at = 0; at + 4 <= len; at += 4) {
        uint32_t e = (uint32_t)data[at] | (uint32_t)data[at + 1] << 8 | (uint32_t)data[at + 2] << 16
                     | (uint32_t)data[at + 3] << 24;
        int p = (int)(e >> PLY_SHIFT);
        if (p != ply) {
            if (ndirty) {
                since = f->n;
                if (settle(s, ply, &ndirty, f) < 0) {
                    rc = -1;
                    break;
                }
            }
            ply = p;
        }
        int i = (int)(e & IDX_MASK), st = (int)((e >> STATE_SHIFT) & 7);
        if (i >= s->points) continue;
        if (st > 2) {
            if (st < MARK_B) continue;
            int colour = st == MARK_B ? 1 : 2;
            for (Py_ssize_t a = since; a < f->n; a++) {
                if (f->a[F_PLY][a] == p - 1) {
                    f->a[F_POINT][a] = i;
                    f->a[F_COLOUR][a] = colour;
                }
            }
            arrive(s, f, p, i, colour);
            continue;
        }
        int old = s->board[i];
        if (old == st) continue;
        s->board[i] = (unsigned char)st;
        if (old) {
            for (int x = s->head[i * 3 + old]; x >= 0; x = s->next[x]) {
                int k = s->entry[x];
                if (s->missing[k]++ == 0) deactivate(s, k);
                mark_dirty(s, k, &ndirty);
            }
        } else {
            for (int j = s->act_head[i]; j >= 0; j = s->act_next[j]) {
                int k = s->need_k[j];
                s->blocked[k]++;
                mark_dirty(s, k, &ndirty);
            }
        }
        if (st) {
            for (int x = s->head[i * 3 + st]; x >= 0; x = s->next[x]) {
                int k = s->entry[x];
                if (--s->missing[k] == 0) activate(s, k);
                mark_dirty(s, k, &ndirty);
            }
        } else {
            for (int j = s->act_head[i]; j >= 0; j = s->act_next[j]) {
                int k = s->need_k[j];
                s->blocked[k]--;
                mark_dirty(s, k, &ndirty);
            }
        }
    }
    if (rc == 0 && ndirty) rc = settle(s, ply, &ndirty, f);
    for (int t = 0; t < s->ntouched; t++) s->head[s->touched[t]] = -1;
    for (int i = 0; i < s->points; i++) s->act_head[i] = -1;
    for (int j = 0; j < ndirty; j++) s->dirty_stamp[s->dirty[j]] = -1;
    return rc;
}

/* lines(rows): for each row (id, black mask, white mask, change list) with appearances, (id, [(ply, placement,
 * next point, next colour, region move, region point, region colour), ...]) in move order; next point -1 (colour
 * 0) where the next move put no stone or the line ends; region move and point -1 (colour 0) where no move came
 * into the region before the line ended. */
static PyObject *scanner_lines(Scanner *s, PyObject *rows) {
    PyObject *it = PyObject_GetIter(rows), *out = PyList_New(0), *row = NULL;
    Found f = {0};
    if (it == NULL || out == NULL) goto fail;
    while ((row = PyIter_Next(it)) != NULL) {
        if (load_masks(s, row, 1) < 0) goto fail;
        prefilter(s);
        if (s->ncand == 0) {
            Py_CLEAR(row);
            continue;
        }
        PyObject *changes = PySequence_GetItem(row, 3);
        if (changes == NULL) goto fail;
        Py_buffer view;
        if (PyObject_GetBuffer(changes, &view, PyBUF_SIMPLE) < 0) {
            Py_DECREF(changes);
            goto fail;
        }
        f.n = 0;
        int rc;
        Py_BEGIN_ALLOW_THREADS
        rc = replay(s, view.buf, view.len, &f);
        Py_END_ALLOW_THREADS
        PyBuffer_Release(&view);
        Py_DECREF(changes);
        if (rc < 0) {
            PyErr_NoMemory();
            goto fail;
        }
        if (f.n) {
            PyObject *list = PyList_New(f.n), *id = PySequence_GetItem(row, 0);
            if (list == NULL || id == NULL) {
                Py_XDECREF(list);
                Py_XDECREF(id);
                goto fail;
            }
            for (Py_ssize_t a = 0; a < f.n; a++) {
                /* the tuple filled directly: Py_BuildValue reads its format for every one of them */
                static const int fields[7] = {F_PLY, F_K, F_POINT, F_COLOUR, F_RPLY, F_RPOINT, F_RCOLOUR};
                PyObject *t = PyTuple_New(7);
                if (t == NULL) {
                    Py_DECREF(list);
                    Py_DECREF(id);
                    goto fail;
                }
                for (int j = 0; j < 7; j++) {
                    PyObject *v = PyLong_FromLong(f.a[fields[j]][a]);
                    if (v == NULL) {
                        Py_DECREF(t);
                        Py_DECREF(list);
                        Py_DECREF(id);
                        goto fail;
                    }
                    PyTuple_SET_ITEM(t, j, v);
                }
                /* numbers only, so never in a cycle: out of the collector's sight (CPython would untrack it at
                 * the next collection anyway, after a pass over each of hundreds of thousands of them) */
                PyObject_GC_UnTrack(t);
                PyList_SET_ITEM(list, a, t);
            }
            PyObject *pair = PyTuple_Pack(2, id, list);
            Py_DECREF(id);
            Py_DECREF(list);
            if (pair == NULL || PyList_Append(out, pair) < 0) {
                Py_XDECREF(pair);
                goto fail;
            }
            Py_DECREF(pair);
        }
        Py_CLEAR(row);
    }
    if (PyErr_Occurred()) goto fail;
    Py_DECREF(it);
    found_free(&f);
    return out;
fail:
    Py_XDECREF(row);
    Py_XDECREF(it);
    Py_XDECREF(out);
    found_free(&f);
    return NULL;
}

/* The tally of a search's appearances (verifier/keys/scan.py `plain_tally` is the plain path): for each
 * continuation the caller names, its hits, the games they came from, the hits in games each colour won (in the
 * pattern's colours) and, in the region, the tenuki. A common shape has hundreds of thousands of appearances and
 * only a few hundred distinct (placement, point, colour) keys: the caller names each key once (a callback that
 * returns its continuation's index), and this loop does the counting. */
typedef struct {
    uint64_t *keys;  /* key + 1; 0 an empty slot */
    int *values;
    Py_ssize_t cap, n;
} KeyTable;

static int keytable_find(const KeyTable *t, uint64_t key) {
    if (t->cap == 0) return -1;
    Py_ssize_t mask = t->cap - 1;
    for (Py_ssize_t at = (Py_ssize_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & mask;; at = (at + 1) & mask) {
        if (t->keys[at] == 0) return -1;
        if (t->keys[at] == key + 1) return t->values[at];
    }
}

static int keytable_put(KeyTable *t, uint64_t key, int value) {
    if ((t->n + 1) * 2 > t->cap) {
        Py_ssize_t cap = t->cap ? t->cap * 2 : 256;
        uint64_t *keys = PyMem_Calloc((size_t)cap, sizeof(uint64_t));
        int *values = PyMem_Calloc((size_t)cap, sizeof(int));
        if (keys == NULL || values == NULL) {
            PyMem_Free(keys);
            PyMem_Free(values);
            PyErr_NoMemory();
            return -1;
        }
        for (Py_ssize_t i = 0; i < t->cap; i++) {
            if (t->keys[i] == 0) continue;
            Py_ssize_t at = (Py_ssize_t)(((t->keys[i] - 1) * 0x9E3779B97F4A7C15ull) >> 32) & (cap - 1);
            while (keys[at]) at = (at + 1) & (cap - 1);
            keys[at] = t->keys[i];
            values[at] = t->values[i];
        }
        PyMem_Free(t->keys);
        PyMem_Free(t->values);
        t->keys = keys;
        t->values = values;
        t->cap = cap;
    }
    Py_ssize_t mask = t->cap - 1;
    Py_ssize_t at = (Py_ssize_t)((key * 0x9E3779B97F4A7C15ull) >> 32) & mask;
    while (t->keys[at]) at = (at + 1) & mask;
    t->keys[at] = key + 1;
    t->values[at] = value;
    t->n++;
    return 0;
}

#define TALLY_FIELDS 5  /* hits, games, black wins, white wins, tenuki */
typedef struct {
    KeyTable keys;
    long long *count, *last;  /* TALLY_FIELDS counters and the last game counted, per index */
    Py_ssize_t n, cap;
    PyObject *name;  /* the caller's callback: (placement, point, colour) -> index */
} Tally;

static void tally_free(Tally *t) {
    PyMem_Free(t->keys.keys);
    PyMem_Free(t->keys.values);
    PyMem_Free(t->count);
    PyMem_Free(t->last);
}

/* The index of (k, point, colour), named by the callback the first time; -1 with an exception set. */
static Py_ssize_t tally_index(Tally *t, int k, int point, int colour) {
    uint64_t key = (uint64_t)(uint32_t)k << 32 | (uint64_t)(uint32_t)(point + 1) << 2 | (uint64_t)(colour & 3);
    int found = keytable_find(&t->keys, key);
    if (found >= 0) return found;
    PyObject *v = PyObject_CallFunction(t->name, "iii", k, point, colour);
    if (v == NULL) return -1;
    long index = PyLong_AsLong(v);
    Py_DECREF(v);
    if (index == -1 && PyErr_Occurred()) return -1;
    if (index < 0 || index > (1L << 24)) {
        PyErr_SetString(PyExc_ValueError, "a continuation's index must be between 0 and 2**24");
        return -1;
    }
    if (index >= t->cap) {
        Py_ssize_t cap = t->cap ? t->cap : 64;
        while (cap <= index) cap *= 2;
        long long *count = PyMem_Realloc(t->count, (size_t)cap * TALLY_FIELDS * sizeof(long long));
        if (count == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        t->count = count;
        long long *last = PyMem_Realloc(t->last, (size_t)cap * sizeof(long long));
        if (last == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        t->last = last;
        for (Py_ssize_t i = t->cap; i < cap; i++) {
            memset(t->count + i * TALLY_FIELDS, 0, TALLY_FIELDS * sizeof(long long));
            t->last[i] = LLONG_MIN;
        }
        t->cap = cap;
    }
    if (index >= t->n) t->n = index + 1;
    if (keytable_put(&t->keys, key, (int)index) < 0) return -1;
    return index;
}

static void tally_count(Tally *t, Py_ssize_t index, long long game, int decided, int black, int tenuki) {
    long long *c = t->count + index * TALLY_FIELDS;
    c[0]++;
    if (t->last[index] != game) {  /* a game's appearances come together: it counts once */
        t->last[index] = game;
        c[1]++;
    }
    if (decided) c[black ? 2 : 3]++;
    c[4] += tenuki;
}

static PyObject *tally_list(const Tally *t) {
    PyObject *out = PyList_New(t->n);
    if (out == NULL) return NULL;
    for (Py_ssize_t i = 0; i < t->n; i++) {
        const long long *c = t->count + i * TALLY_FIELDS;
        PyObject *row = Py_BuildValue("(LLLLL)", c[0], c[1], c[2], c[3], c[4]);
        if (row == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, row);
    }
    return out;
}

/* tally(lines, plies, winners, swapped, gap, region_of, next_of) -> (region counts, next counts) */
static PyObject *scan_tally(PyObject *self, PyObject *args) {
    PyObject *lines, *plies, *winners, *region_of, *next_of, *it = NULL, *pair = NULL, *result = NULL;
    Py_buffer swapped;
    int gap;
    if (!PyArg_ParseTuple(args, "OOOy*iOO", &lines, &plies, &winners, &swapped, &gap, &region_of, &next_of))
        return NULL;
    Tally region = {0}, next = {0};
    region.name = region_of;
    next.name = next_of;
    const unsigned char *swap = swapped.buf;
    it = PyObject_GetIter(lines);
    if (it == NULL) goto done;
    while ((pair = PyIter_Next(it)) != NULL) {
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2 || !PyList_Check(PyTuple_GET_ITEM(pair, 1))) {
            PyErr_SetString(PyExc_TypeError, "tally: each line must be a tuple (id, list of hits)");
            goto done;
        }
        PyObject *gid = PyTuple_GET_ITEM(pair, 0), *at = PyTuple_GET_ITEM(pair, 1);
        long long game = PyLong_AsLongLong(gid);
        if (game == -1 && PyErr_Occurred()) goto done;
        PyObject *pl = PyDict_GetItemWithError(plies, gid), *win = PyDict_GetItemWithError(winners, gid);
        if (pl == NULL || win == NULL) {
            if (!PyErr_Occurred()) PyErr_SetObject(PyExc_KeyError, gid);
            goto done;
        }
        long last_ply = PyLong_AsLong(pl);
        if (last_ply == -1 && PyErr_Occurred()) goto done;
        int black_won = PyUnicode_Check(win) && PyUnicode_CompareWithASCIIString(win, "B") == 0;
        int decided = black_won || (PyUnicode_Check(win) && PyUnicode_CompareWithASCIIString(win, "W") == 0);
        for (Py_ssize_t a = 0; a < PyList_GET_SIZE(at); a++) {
            PyObject *hit = PyList_GET_ITEM(at, a);
            long v[7];
            if (!PyTuple_Check(hit) || PyTuple_GET_SIZE(hit) != 7) {
                PyErr_SetString(PyExc_TypeError, "tally: each hit must be a tuple of 7 numbers");
                goto done;
            }
            for (int j = 0; j < 7; j++) {
                v[j] = PyLong_AsLong(PyTuple_GET_ITEM(hit, j));
                if (v[j] == -1 && PyErr_Occurred()) goto done;
            }
            long ply = v[0];
            int k = (int)v[1];
            if (k < 0 || k >= swapped.len) {
                PyErr_SetString(PyExc_IndexError, "tally: a hit names a placement beyond `swapped`");
                goto done;
            }
            int black = black_won != (swap[k] != 0);
            Py_ssize_t r = tally_index(&region, k, (int)v[5], (int)v[6]);
            if (r < 0) goto done;
            tally_count(&region, r, game, decided, black, v[4] > ply + gap);
            if (ply >= last_ply) continue;  /* the line ends there: no move after it */
            Py_ssize_t n = tally_index(&next, k, (int)v[2], (int)v[3]);
            if (n < 0) goto done;
            tally_count(&next, n, game, decided, black, 0);
        }
        Py_CLEAR(pair);
    }
    if (PyErr_Occurred()) goto done;
    PyObject *r = tally_list(&region), *n = r ? tally_list(&next) : NULL;
    if (r && n) result = PyTuple_Pack(2, r, n);
    Py_XDECREF(r);
    Py_XDECREF(n);
done:
    Py_XDECREF(pair);
    Py_XDECREF(it);
    tally_free(&region);
    tally_free(&next);
    PyBuffer_Release(&swapped);
    return result;
}

static PyMethodDef module_methods[] = {
    {"tally", (PyCFunction)scan_tally, METH_VARARGS,
     "tally(lines, plies, winners, swapped, gap, region_of, next_of): the counts of each continuation named"},
    {NULL, NULL, 0, NULL},
};

static PyMethodDef scanner_methods[] = {
    {"possible", (PyCFunction)scanner_possible, METH_O,
     "possible(rows): the ids of the rows (id, black, white, ...) whose masks allow some placement"},
    {"lines", (PyCFunction)scanner_lines, METH_O,
     "lines(rows): [(id, [(ply, placement, next point, next colour, region move, region point, region colour), "
     "...])] for rows (id, black, white, changes)"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject ScannerType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "boardrecords.verifier.keys._scan.Scanner",
    .tp_basicsize = sizeof(Scanner),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The prefilter and the change-list replay of one pattern's placements.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)scanner_init,
    .tp_dealloc = (destructor)scanner_dealloc,
    .tp_methods = scanner_methods,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_scan",
    .m_doc = "The compiled pattern scan (verifier/keys/scan.py is the plain path).",
    .m_size = -1,
    .m_methods = module_methods,
};

PyMODINIT_FUNC PyInit__scan(void) {
    if (PyType_Ready(&ScannerType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    Py_INCREF(&ScannerType);
    if (PyModule_AddObject(m, "Scanner", (PyObject *)&ScannerType) < 0) {
        Py_DECREF(&ScannerType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
