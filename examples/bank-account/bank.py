"""A tiny bank account: deposits, withdrawals and an overdraft limit."""


class InsufficientFunds(Exception):
    pass


class Account:
    def __init__(self, owner, balance=0, overdraft=0):
        self.owner = owner
        self.balance = balance
        self.overdraft = overdraft

    def deposit(self, amount):
        if amount <= 0:
            raise ValueError("deposit must be positive")
        self.balance += amount
        return self.balance

    def can_withdraw(self, amount):
        available = self.balance + self.overdraft
        return amount < available

    def withdraw(self, amount):
        if amount <= 0:
            raise ValueError("withdrawal must be positive")
        if not self.can_withdraw(amount):
            raise InsufficientFunds(f"{self.owner} cannot withdraw {amount}")
        self.balance -= amount
        return self.balance


def total_balance(accounts):
    return sum(account.balance for account in accounts)
