import pytest

from bank import Account, InsufficientFunds, total_balance


def test_deposit_adds_to_balance():
    account = Account("ada", 10)
    assert account.deposit(5) == 15


def test_deposit_must_be_positive():
    with pytest.raises(ValueError):
        Account("ada").deposit(0)


def test_withdraw_within_balance():
    account = Account("ada", 100)
    assert account.withdraw(30) == 70


def test_withdraw_entire_balance():
    account = Account("ada", 50)
    assert account.withdraw(50) == 0


def test_withdraw_more_than_balance_is_refused():
    account = Account("ada", 20)
    with pytest.raises(InsufficientFunds):
        account.withdraw(21)


def test_overdraft_extends_what_can_be_withdrawn():
    account = Account("ada", 20, overdraft=30)
    assert account.withdraw(45) == -25


def test_total_balance():
    assert total_balance([Account("a", 1), Account("b", 2)]) == 3
