"""Per-token activation scales for a dynamically quantised ONNX graph (issue 33, a probe).

ONNX Runtime's ``quantize_dynamic`` gives every ``MatMulInteger`` one activation scale
for the whole tensor (``DynamicQuantizeLinear``), so a text's int8 vector moves with the
texts packed beside it. This rewrites each such quantisation to one scale per token row
(the row's largest absolute value over 127, zero point 128, a blocked ``QuantizeLinear``
of opset 21) and multiplies each row's product by its own scale after the integer
MatMul. The fused ``MatMulIntegerToFloat`` reads a single activation scale, so it is
handed 1 and the row scales follow as a separate ``Mul``.

Used by ``lab/int8_determinism_probe.py``; nothing here ships. For example::

    per_token_graph(Path("dynamic.onnx"), Path("per-token.onnx"))
"""

from __future__ import annotations

from pathlib import Path

import numpy as np


def per_token_graph(dynamic: Path, target: Path) -> Path:
    """Write ``dynamic`` (a ``quantize_dynamic`` output) with per-token scales to ``target``."""
    import onnx
    from onnx import numpy_helper, version_converter

    model = version_converter.convert_version(onnx.load(str(dynamic)), 21)
    graph = model.graph
    graph.initializer.extend(
        numpy_helper.from_array(np.array(v, dtype=t), name)
        for name, v, t in (
            ("rowq_axes", [-1], np.int64),
            ("rowq_eps", 1e-12, np.float32),
            ("rowq_inv127", 1 / 127, np.float32),
            ("rowq_one", 1.0, np.float32),
            ("rowq_zp", 128, np.uint8),
        )
    )
    widths = _input_widths(graph)
    nodes = [m for n in graph.node for m in _requantise(n, widths)]
    nodes = _rescale_rows(nodes, {n.output[1] for n in graph.node if _is_dql(n)})
    del graph.node[:]
    graph.node.extend(nodes)
    stale = ("_scale", "_zero_point", "_quantized")
    keep = [v for v in graph.value_info if not v.name.endswith(stale)]
    del graph.value_info[:]
    graph.value_info.extend(keep)
    onnx.save(model, str(target))
    return target


def _is_dql(node: object) -> bool:
    return getattr(node, "op_type", "") == "DynamicQuantizeLinear"


def _input_widths(graph: object) -> dict[str, int]:
    """Each quantised activation's width (its MatMul weight's rows), keyed by the float input."""
    weights = {i.name: i for i in graph.initializer}
    quantised = {n.output[0]: n.input[0] for n in graph.node if _is_dql(n)}
    return {
        quantised[n.input[0]]: weights[n.input[1]].dims[0]
        for n in graph.node
        if n.op_type == "MatMulInteger" and n.input[0] in quantised
    }


def _requantise(node: object, widths: dict[str, int]) -> list:
    """``node`` itself, or, for a per-tensor quantisation, its per-token replacement."""
    from onnx import helper, numpy_helper

    if not _is_dql(node):
        return [node]
    x, (q, scale, zero) = node.input[0], node.output
    p = x.replace("/", "_") + "_rowq"
    zp_value = numpy_helper.from_array(np.array([128], dtype=np.uint8))
    return [
        helper.make_node("Abs", [x], [p + "_abs"]),
        helper.make_node("ReduceMax", [p + "_abs", "rowq_axes"], [p + "_max"], keepdims=1),
        helper.make_node("Max", [p + "_max", "rowq_eps"], [p + "_maxe"]),
        helper.make_node("Mul", [p + "_maxe", "rowq_inv127"], [scale]),
        helper.make_node("Shape", [scale], [p + "_shape"]),
        helper.make_node("ConstantOfShape", [p + "_shape"], [p + "_zp"], value=zp_value),
        helper.make_node(
            "QuantizeLinear", [x, scale, p + "_zp"], [q], axis=-1, block_size=widths[x]
        ),
        helper.make_node("Identity", ["rowq_zp"], [zero]),
    ]


def _rescale_rows(nodes: list, scales: set[str]) -> list:
    """Give the scale products 1 for the activation and multiply each row's result after."""
    from onnx import helper

    row_of: dict[str, str] = {}
    for n in nodes:
        for k in (0, 1):
            if n.op_type == "Mul" and n.input[k] in scales and n.output[0] not in scales:
                row_of[n.output[0]] = n.input[k]
                n.input[k] = "rowq_one"
    out = []
    for n in nodes:
        out.append(n)
        used = [i for i in n.input if i in row_of]
        if n.op_type == "Mul" and used and n.output[0] not in row_of:
            y = n.output[0]
            n.output[0] = y + "_rowq_pre"
            out.append(helper.make_node("Mul", [y + "_rowq_pre", row_of[used[0]]], [y]))
    return out
