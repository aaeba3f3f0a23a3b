from brackets import first_error, is_balanced, max_depth


def test_interleaved_is_not_balanced():
    assert not is_balanced('([)]')
    assert first_error('([)]') == 2


def test_text_without_brackets():
    assert is_balanced('plain text')
    assert max_depth('plain text') == 0


def test_sequential_groups():
    assert max_depth('()()()') == 1
    assert is_balanced('{}[]()')
