import { csvCell, csvText } from './csv';

describe('csv', () => {
  it('quotes what needs quoting', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a, b')).toBe('"a, b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(12)).toBe('12');
  });

  it('never lets a spreadsheet run a formula', () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvCell('+66812345678x')).toBe("'+66812345678x");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('-A1')).toBe("'-A1");
    // Plain numbers stay numbers.
    expect(csvCell('-5')).toBe('-5');
    expect(csvCell('+66812345678')).toBe('+66812345678');
  });

  it('writes a file with a byte-order mark', () => {
    expect(csvText([['ชื่อ', 'จำนวน'], ['ก', 1]])).toBe('\uFEFFชื่อ,จำนวน\nก,1\n');
  });
});
