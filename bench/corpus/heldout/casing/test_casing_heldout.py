from casing import split_words, to_camel, to_snake


def test_acronym_stays_together():
    assert split_words('HTTPServer') == ['httpserver']


def test_empty_and_separators_only():
    assert to_camel('') == ''
    assert to_snake('__') == ''


def test_round_trips():
    for name in ('one', 'one_two', 'alpha_beta_gamma'):
        assert to_snake(to_camel(name)) == name


def test_leading_separator():
    assert to_camel('_private_name') == 'privateName'
