/* What every engine's compiled run (_go.c, _conversion_go.c, _cation.c, _quentin.c, _squer.c) reads of a line's
 * nodes: whether a node is plain (nothing in it that the replay driver must look at: setup, marks) and, if so, the
 * placement it holds. One copy, included by each extension (each is a module of its own, so the functions are
 * static). */
#ifndef BOARDRECORDS_PLAIN_MOVES_H
#define BOARDRECORDS_PLAIN_MOVES_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* The attribute names a run reads, interned once per call. */
typedef struct {
    PyObject *props, *move, *kind, *colour, *point;
} MoveNames;

static void names_close(MoveNames *n) {
    Py_CLEAR(n->props);
    Py_CLEAR(n->move);
    Py_CLEAR(n->kind);
    Py_CLEAR(n->colour);
    Py_CLEAR(n->point);
}

/* 0, or -1 with an error set (nothing then held). */
static int names_open(MoveNames *n) {
    n->props = PyUnicode_InternFromString("_props");
    n->move = PyUnicode_InternFromString("move");
    n->kind = PyUnicode_InternFromString("kind");
    n->colour = PyUnicode_InternFromString("colour");
    n->point = PyUnicode_InternFromString("point");
    if (n->props && n->move && n->kind && n->colour && n->point) return 0;
    names_close(n);
    return -1;
}

/* Whether the node's move may be played in a run: a bare node, or one whose properties hold none of `idents`;
 * -1 on an error. */
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

/* The point index of `move` when it is a placement (`place`) of `colour` on a size x size board, -1 when it is
 * not, -2 on an error. */
static int placement_of(PyObject *move, const MoveNames *n, PyObject *place, PyObject *colour, int size) {
    PyObject *kind = PyObject_GetAttr(move, n->kind), *mover = PyObject_GetAttr(move, n->colour);
    PyObject *point = PyObject_GetAttr(move, n->point);
    int index = -1;
    if (kind == NULL || mover == NULL || point == NULL) index = -2;
    else if (kind == place && mover == colour && PyTuple_Check(point) && PyTuple_GET_SIZE(point) == 2
             && PyLong_Check(PyTuple_GET_ITEM(point, 0)) && PyLong_Check(PyTuple_GET_ITEM(point, 1))) {
        long col = PyLong_AsLong(PyTuple_GET_ITEM(point, 0)), row = PyLong_AsLong(PyTuple_GET_ITEM(point, 1));
        if (PyErr_Occurred()) index = -2;
        else if (col >= 0 && col < size && row >= 0 && row < size) index = (int)(row * size + col);
    }
    Py_XDECREF(kind);
    Py_XDECREF(mover);
    Py_XDECREF(point);
    return index;
}

enum { NODE_ERROR = -1, NODE_EMPTY = 0, NODE_PLAY = 1, NODE_ENDS_RUN = 2 };

/* What a run does with `node`: NODE_PLAY with *index set (a plain node holding a placement of `colour` on the
 * board), NODE_EMPTY (a plain node with no move: nothing to replay), NODE_ENDS_RUN (anything else), NODE_ERROR (a
 * Python error set). */
static int plain_placement(PyObject *node, const MoveNames *n, PyObject *idents, PyObject *place, PyObject *colour,
                           int size, int *index) {
    int plain = plain_node(node, n->props, idents);
    if (plain < 0) return NODE_ERROR;
    if (!plain) return NODE_ENDS_RUN;
    PyObject *move = PyObject_GetAttr(node, n->move);
    if (move == NULL) return NODE_ERROR;
    if (move == Py_None) {
        Py_DECREF(move);
        return NODE_EMPTY;
    }
    int i = placement_of(move, n, place, colour, size);
    Py_DECREF(move);
    if (i == -2) return NODE_ERROR;
    if (i < 0) return NODE_ENDS_RUN;
    *index = i;
    return NODE_PLAY;
}

#endif
