

def test_a_grad_reached_through_the_graph_suggests_the_graph_of_its_root() -> None:
    # grad-modes/scaled-param: `variable` is an attribute of a node, not a name to draw
    from tutor.pictures import suggest

    spec = suggest("number", "w.grad_fn.next_functions[0][0].variable.grad",
                   "w = torch.randn(3, requires_grad=True) * 2", "autograd")
    assert spec is not None and (spec.what, spec.expr) == ("graph", "w")
