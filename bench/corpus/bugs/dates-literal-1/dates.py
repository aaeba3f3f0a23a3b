'''Calendar arithmetic without the datetime module.'''

DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]


def is_leap(year):
    if year % 400 == 0:
        return True
    if year % 100 == 0:
        return False
    return year % 4 == 0


def days_in_month(year, month):
    if month < 1 or month > 12:
        raise ValueError('bad month: ' + str(month))
    if month == 2 and is_leap(year):
        return 29
    return DAYS_IN_MONTH[month - 1]


def day_of_year(year, month, day):
    total = day
    for earlier in range(1, month):
        total += days_in_month(year, earlier)
    return total


def add_days(year, month, day, count):
    while count > 0:
        remaining = days_in_month(year, month) - day
        if count <= remaining:
            return (year, month, day + count)
        count -= remaining + 1
        day = 1
        month += 1
        if month > 12:
            month = 1
            year += 1
    return (year, month, day)


def format_date(year, month, day):
    return '%04d-%02d-%02' % (year, month, day)
