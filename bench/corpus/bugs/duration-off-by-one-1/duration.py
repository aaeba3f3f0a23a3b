'''Durations written like 1h30m or 2d4h5s.'''

UNITS = {'d': 86400, 'h': 3600, 'm': 60, 's': 1}


def parse(text):
    total = 0
    number = ''
    for char in text.strip():
        if char.isdigit():
            number += char
        elif char in UNITS:
            if not number:
                raise ValueError('unit without number: ' + char)
            total += int(number) * UNITS[char]
            number = ''
        else:
            raise ValueError('bad character: ' + char)
    if number:
        raise ValueError('number without unit: ' + number)
    return total


def format_seconds(seconds):
    if seconds == 0:
        return '0s'
    parts = []
    for unit in ('d', 'h', 'm', 's'):
        amount, seconds = divmod(seconds, UNITS[unit])
        if amount > 0:
            parts.append(str(amount) + unit)
    return ''.join(parts)


def add(first, second):
    return format_seconds(parse(first) + parse(second))


def clock(seconds):
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 61)
    return '%d:%02d:%02d' % (hours, minutes, secs)
