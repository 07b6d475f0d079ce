/* The parser's fast path (records/grammar.py, token 1), compiled: a run of nodes that hold nothing but a plain
 * move (`;B[dd];W[pp]...`, as the tokenizer's regex matched it) made into a chain of parsed nodes in one call. The
 * nodes are the parser's own class, their fields written as its `__init__` writes them: `_props` None, `parent`
 * the node before, `move` the cached move of the token (None where the cache has none: the parser types those
 * itself), `children` a list of exactly the next node, `()` for the last one. The plain-Python loop is the
 * reference; the tests compare the trees both make.
 *
 * setup(cls, children, parent, move, props)
 *   cls: the parser's node class; the others: the member descriptors of those slots (Node's __slots__). Checks
 *   they are object slots inside the instance and keeps their offsets.
 * chain(run, parent, cache)
 *   run: the bytes of one run; parent: the node the first node hangs below (its children are not touched: the
 *   parser attaches the first node); cache: dict of token bytes (`B[dd]`) to Move.
 *   Returns (first node, last node, misses): misses a list of (node, token) whose move the cache lacked, in order,
 *   or None when there were none.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <string.h>

static PyTypeObject *node_type = NULL;
static Py_ssize_t off_children = -1, off_parent = -1, off_move = -1, off_props = -1;

static Py_ssize_t slot_offset(PyObject *descr, const char *name) {
    if (!PyObject_TypeCheck(descr, &PyMemberDescr_Type)) {
        PyErr_Format(PyExc_TypeError, "%s is not a slot", name);
        return -1;
    }
    PyMemberDef *def = ((PyMemberDescrObject *)descr)->d_member;
    if (def->type != T_OBJECT_EX && def->type != T_OBJECT) {
        PyErr_Format(PyExc_TypeError, "%s is not an object slot", name);
        return -1;
    }
    if (def->offset <= 0 || def->offset + (Py_ssize_t)sizeof(PyObject *) > node_type->tp_basicsize) {
        PyErr_Format(PyExc_TypeError, "%s lies outside the node", name);
        return -1;
    }
    return def->offset;
}

static PyObject *setup(PyObject *self, PyObject *args) {
    PyObject *cls, *children, *parent, *move, *props;
    if (!PyArg_ParseTuple(args, "O!OOOO", &PyType_Type, &cls, &children, &parent, &move, &props))
        return NULL;
    Py_XSETREF(node_type, (PyTypeObject *)Py_NewRef(cls));
    if ((off_children = slot_offset(children, "children")) < 0 || (off_parent = slot_offset(parent, "parent")) < 0 ||
        (off_move = slot_offset(move, "move")) < 0 || (off_props = slot_offset(props, "_props")) < 0) {
        Py_CLEAR(node_type);
        return NULL;
    }
    Py_RETURN_NONE;
}

#define SLOT(obj, off) (*(PyObject **)((char *)(obj) + (off)))

/* A new node below `parent` holding `move` (borrowed; may be NULL for None), childless: `children` is `()`. */
static PyObject *new_node(PyObject *parent, PyObject *move, PyObject *empty) {
    PyObject *node = node_type->tp_alloc(node_type, 0);
    if (node == NULL)
        return NULL;
    SLOT(node, off_props) = Py_NewRef(Py_None);
    SLOT(node, off_children) = Py_NewRef(empty);
    SLOT(node, off_parent) = Py_NewRef(parent);
    SLOT(node, off_move) = Py_NewRef(move != NULL ? move : Py_None);
    return node;
}

static PyObject *chain(PyObject *self, PyObject *args) {
    Py_buffer run;
    PyObject *parent, *cache;
    if (node_type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "setup() first");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "y*OO!", &run, &parent, &PyDict_Type, &cache))
        return NULL;
    const char *data = run.buf, *end = data + run.len, *p = data;
    PyObject *empty = PyTuple_New(0), *first = NULL, *last = NULL, *misses = NULL, *result = NULL;
    if (empty == NULL)
        goto done;
    while (p < end) {
        /* Each token: `;`, whitespace, `B[` or `W[`, letters and `-`, `]`, whitespace (the regex made sure). */
        while (p < end && *p != 'B' && *p != 'W')
            p++;
        if (p >= end)
            break;
        const char *close = memchr(p, ']', (size_t)(end - p));
        if (close == NULL)
            break;
        PyObject *token = PyBytes_FromStringAndSize(p, close - p + 1);
        if (token == NULL)
            goto fail;
        PyObject *move = PyDict_GetItemWithError(cache, token); /* borrowed */
        if (move == NULL && PyErr_Occurred()) {
            Py_DECREF(token);
            goto fail;
        }
        PyObject *node = new_node(last != NULL ? last : parent, move, empty);
        if (node == NULL) {
            Py_DECREF(token);
            goto fail;
        }
        if (move == NULL) {
            if (misses == NULL && (misses = PyList_New(0)) == NULL) {
                Py_DECREF(token);
                Py_DECREF(node);
                goto fail;
            }
            PyObject *pair = PyTuple_Pack(2, node, token);
            if (pair == NULL || PyList_Append(misses, pair) < 0) {
                Py_XDECREF(pair);
                Py_DECREF(token);
                Py_DECREF(node);
                goto fail;
            }
            Py_DECREF(pair);
        }
        Py_DECREF(token);
        if (last == NULL) {
            first = node;
        } else {
            PyObject *kids = PyList_New(1);
            if (kids == NULL) {
                Py_DECREF(node);
                goto fail;
            }
            PyList_SET_ITEM(kids, 0, node); /* the node before owns it now: only `first` is owned here */
            Py_SETREF(SLOT(last, off_children), kids);
        }
        last = node;
        p = close + 1;
    }
    if (first == NULL) {
        PyErr_SetString(PyExc_ValueError, "a run without a move");
        goto fail;
    }
    result = Py_BuildValue("(OOO)", first, last, misses != NULL ? misses : Py_None);
    Py_DECREF(first);
    Py_XDECREF(misses);
    goto done;
fail:
    Py_XDECREF(first); /* and with it every node after it */
    Py_XDECREF(misses);
done:
    Py_XDECREF(empty);
    PyBuffer_Release(&run);
    return result;
}

static PyMethodDef methods[] = {
    {"setup", setup, METH_VARARGS, "setup(cls, children, parent, move, props): the node class and its slots."},
    {"chain", chain, METH_VARARGS, "chain(run, parent, cache) -> (first, last, misses): a run's nodes."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_runs", NULL, -1, methods};

PyMODINIT_FUNC PyInit__runs(void) { return PyModule_Create(&module); }
