'''Pricing rules: bulk discounts and tax by category.'''

TAX_PERCENT = {'general': 20, 'food': 5, 'books': 0}


def bulk_discount_percent(quantity):
    if quantity >= 100:
        return 15
    if quantity >= 10:
        return 5
    return 0


def apply_percent(cents, percent):
    return cents * (100 - percent) // 100


def tax_cents(cents, category):
    percent = TAX_PERCENT.get(category, TAX_PERCENT['general'])
    return (cents * percent + 50) // 100


def line_price(item, quantity):
    '''Price of `quantity` units after the bulk discount, before tax.'''
    gross = item.price_cents * quantity
    return apply_percent(gross, bulk_discount_percent(quantity))
