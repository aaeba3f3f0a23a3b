from wrap import center, justify, wrap


def test_no_line_too_long():
    text = 'lorem ipsum dolor sit amet consectetur adipiscing elit sed do'
    for width in range(11, 30):
        lines = wrap(text, width)
        assert all(len(line) <= width for line in lines)
        assert ' '.join(lines) == text


def test_empty_text():
    assert wrap('', 5) == []


def test_center_too_wide():
    assert center('abcdef', 3) == 'abcdef'


def test_justify_uneven_gaps():
    assert justify('a b c d', 9) == 'a  b  c d'
    assert justify('word', 6) == 'word  '
