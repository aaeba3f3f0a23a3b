import { describe, expect, it } from 'vitest';
import { expiringSoon, formatCents, textTable, valuation, valuationReport } from '../src/index.js';
import { warehouse } from './fixtures.js';

describe('valuation', () => {
  it('values every lot at its own cost', () => {
    const { lines, totalCents } = valuation(warehouse());
    expect(lines).toEqual([
      { sku: 'TAPE', qty: 30, valueCents: 7500, averageCents: 250 },
      { sku: 'SIGN', qty: 2, valueCents: 3000, averageCents: 1500 },
      { sku: 'MILK', qty: 18, valueCents: 2100, averageCents: 117 },
      { sku: 'BOLT', qty: 180, valueCents: 720, averageCents: 4 },
    ]);
    expect(totalCents).toBe(13320);
  });

  it('leaves out expired stock on a given day', () => {
    const milk = valuation(warehouse(), { today: '2024-05-16' }).lines.find((l) => l.sku === 'MILK');
    expect(milk).toEqual({ sku: 'MILK', qty: 12, valueCents: 1440, averageCents: 120 });
  });

  it('prints a report', () => {
    const report = valuationReport(valuation(warehouse()));
    expect(report.split('\n')).toEqual([
      'sku    qty  value',
      '-----  ---  ------',
      'TAPE    30  75.00',
      'SIGN     2  30.00',
      'MILK    18  21.00',
      'BOLT   180  7.20',
      'total       133.20',
    ]);
  });
});

describe('expiringSoon', () => {
  it('lists lots expiring within the window', () => {
    expect(expiringSoon(warehouse(), '2024-05-10', 7)).toEqual([{ lot: 'MILK#1', qty: 6, expires: '2024-05-15' }]);
    expect(expiringSoon(warehouse(), '2024-05-10', 30).map((l) => l.lot)).toEqual(['MILK#1', 'MILK#2']);
  });
});

describe('formatting', () => {
  it('formats cents and tables', () => {
    expect(formatCents(-1205)).toBe('-12.05');
    expect(textTable([])).toBe('');
  });
});
