from brackets import first_error, is_balanced, max_depth


def test_balanced():
    assert is_balanced('f(a[1], {b: 2})')


def test_empty_is_balanced():
    assert is_balanced('')


def test_wrong_closer():
    assert first_error('(]') == 1


def test_unclosed_opener_reports_first():
    assert first_error('x(y[') == 1


def test_extra_closer():
    assert first_error('a)b') == 1


def test_max_depth():
    assert max_depth('((a)[{b}])') == 3
