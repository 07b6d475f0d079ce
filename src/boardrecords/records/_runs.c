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
 *
 * Two walks of a whole tree that every verified record takes, compiled as well (records/model.py, Record.main_line
 * and Record.let_go, are the plain path): main_line(root) and let_go(root). They go through the attributes, not the
 * slots, so they serve any tree, read or made in code.
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

/* The names of the attributes the walks below read and write, interned once. */
static PyObject *n_children, *n_parent, *n_pos, *n_move, *n_props, *n_node, *n_move_pos;

static int intern_names(void) {
    if (n_children != NULL) return 0;
    n_children = PyUnicode_InternFromString("children");
    n_parent = PyUnicode_InternFromString("parent");
    n_pos = PyUnicode_InternFromString("_pos");
    n_move = PyUnicode_InternFromString("move");
    n_props = PyUnicode_InternFromString("_props");
    n_node = PyUnicode_InternFromString("_node");
    n_move_pos = PyUnicode_InternFromString("pos");
    return n_children && n_parent && n_pos && n_move && n_props && n_node && n_move_pos ? 0 : -1;
}

/* main_line(root): the nodes after the root along the first child at every branch (Record.main_line). */
static PyObject *main_line(PyObject *self, PyObject *root) {
    if (intern_names() < 0) return NULL;
    PyObject *out = PyList_New(0);
    if (out == NULL) return NULL;
    PyObject *node = root;
    Py_INCREF(node);
    for (;;) {
        PyObject *children = PyObject_GetAttr(node, n_children);
        Py_DECREF(node);
        if (children == NULL) goto fail;
        PyObject *seq = PySequence_Fast(children, "children is not a sequence");
        Py_DECREF(children);
        if (seq == NULL) goto fail;
        if (PySequence_Fast_GET_SIZE(seq) == 0) {
            Py_DECREF(seq);
            return out;
        }
        node = PySequence_Fast_GET_ITEM(seq, 0);
        Py_INCREF(node);
        Py_DECREF(seq);
        if (PyList_Append(out, node) < 0) {
            Py_DECREF(node);
            goto fail;
        }
    }
fail:
    Py_DECREF(out);
    return NULL;
}

/* let_go(root): Record.let_go's walk of the tree: every node's parent and position dropped, the move of a node whose
 * move holds its own position (one that does not fit, which finds the node again) dropped, and every property's node
 * and position dropped. */
static PyObject *let_go(PyObject *self, PyObject *root) {
    if (intern_names() < 0) return NULL;
    PyObject *todo = PyList_New(0);
    if (todo == NULL || PyList_Append(todo, root) < 0) goto fail;
    while (PyList_GET_SIZE(todo)) {
        Py_ssize_t top = PyList_GET_SIZE(todo) - 1;
        PyObject *node = PyList_GET_ITEM(todo, top);
        Py_INCREF(node);
        if (PyList_SetSlice(todo, top, top + 1, NULL) < 0) { Py_DECREF(node); goto fail; }
        int bad = PyObject_SetAttr(node, n_parent, Py_None) < 0 || PyObject_SetAttr(node, n_pos, Py_None) < 0;
        PyObject *move = bad ? NULL : PyObject_GetAttr(node, n_move);
        if (move == NULL) bad = 1;
        else {
            if (move != Py_None) {
                PyObject *pos = PyObject_GetAttr(move, n_move_pos);
                if (pos == NULL) bad = 1;
                else {
                    if (pos != Py_None && PyObject_SetAttr(node, n_move, Py_None) < 0) bad = 1;
                    Py_DECREF(pos);
                }
            }
            Py_DECREF(move);
        }
        PyObject *props = bad ? NULL : PyObject_GetAttr(node, n_props);
        if (props == NULL) bad = 1;
        else {
            if (PyDict_Check(props)) {
                PyObject *key, *prop;
                Py_ssize_t at = 0;
                while (!bad && PyDict_Next(props, &at, &key, &prop))
                    bad = PyObject_SetAttr(prop, n_node, Py_None) < 0 || PyObject_SetAttr(prop, n_pos, Py_None) < 0;
            }
            Py_DECREF(props);
        }
        PyObject *children = bad ? NULL : PyObject_GetAttr(node, n_children);
        Py_DECREF(node);
        if (children == NULL) goto fail;
        PyObject *seq = PySequence_Fast(children, "children is not a sequence");
        Py_DECREF(children);
        if (seq == NULL) goto fail;
        for (Py_ssize_t k = 0; k < PySequence_Fast_GET_SIZE(seq); k++)
            if (PyList_Append(todo, PySequence_Fast_GET_ITEM(seq, k)) < 0) { Py_DECREF(seq); goto fail; }
        Py_DECREF(seq);
    }
    Py_DECREF(todo);
    Py_RETURN_NONE;
fail:
    Py_XDECREF(todo);
    return NULL;
}

static PyMethodDef methods[] = {
    {"main_line", main_line, METH_O, "main_line(root): the nodes of the main line after the root."},
    {"let_go", let_go, METH_O, "let_go(root): the links that make a tree cyclic broken (Record.let_go)."},
    {"setup", setup, METH_VARARGS, "setup(cls, children, parent, move, props): the node class and its slots."},
    {"chain", chain, METH_VARARGS, "chain(run, parent, cache) -> (first, last, misses): a run's nodes."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_runs", NULL, -1, methods};

PyMODINIT_FUNC PyInit__runs(void) { return PyModule_Create(&module); }
