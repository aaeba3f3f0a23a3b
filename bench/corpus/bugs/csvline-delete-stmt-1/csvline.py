'''Parsing comma-separated lines with double-quoted fields.'''


def parse_line(line, separator=','):
    fields = []
    field = ''
    quoted = False
    index = 0
    while index < len(line):
        char = line[index]
        if quoted:
            if char == '"':
                if index + 1 < len(line) and line[index + 1] == '"':
                    index += 1
                else:
                    quoted = False
            else:
                field += char
        elif char == '"':
            quoted = True
        elif char == separator:
            fields.append(field)
            field = ''
        else:
            field += char
        index += 1
    if quoted:
        raise ValueError('unterminated quote')
    fields.append(field)
    return fields


def parse_records(text):
    lines = [line for line in text.splitlines() if line.strip()]
    header = parse_line(lines[0])
    records = []
    for line in lines[1:]:
        values = parse_line(line)
        if len(values) != len(header):
            raise ValueError('wrong field count: ' + line)
        records.append(dict(zip(header, values)))
    return records
