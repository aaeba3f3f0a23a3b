from casing import split_words, to_camel, to_kebab, to_snake, to_title


def test_split_camel():
    assert split_words('parseHttpResponse') == ['parse', 'http', 'response']


def test_split_mixed_separators():
    assert split_words('a_b-c d') == ['a', 'b', 'c', 'd']


def test_to_snake():
    assert to_snake('userId') == 'user_id'


def test_to_kebab():
    assert to_kebab('max_retry_count') == 'max-retry-count'


def test_to_camel():
    assert to_camel('max-retry-count') == 'maxRetryCount'


def test_to_title():
    assert to_title('hello_world') == 'Hello World'
