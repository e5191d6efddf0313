/** Property-based tests for the exposition parser (parsers get property tests beside their corpus tests). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeLabelValue } from './prom-escape.ts';
import { decimalValue, parsePromNumber } from './prom-number.ts';
import { parsePrometheus } from './prom-parse.ts';

// Characters that stress the escaping and the tokenizer, mixed with any code point.
const tricky = fc.constantFrom(
  '\\',
  '"',
  '\n',
  '{',
  '}',
  ',',
  '=',
  ' ',
  '\t',
  '#',
  '\r',
  'n',
  '\\n',
  'é',
  '🦙',
  '\u0000',
);
const anyChar = fc.string({ unit: 'binary', minLength: 1, maxLength: 1 });
const labelValue = fc.string({ unit: fc.oneof(tricky, anyChar), maxLength: 40 });
const legalName = fc.stringMatching(/^[a-zA-Z_][a-zA-Z0-9_]{0,12}$/).filter((n) => n !== '__name__');
const utf8Name = fc.string({ unit: fc.oneof(tricky, anyChar), minLength: 1, maxLength: 12 });
const labelName = fc.oneof(
  legalName.map((n) => ({ name: n, written: n })),
  utf8Name.map((n) => ({ name: n, written: `"${escapeLabelValue(n)}"` })),
);
const labelSet = fc.uniqueArray(fc.tuple(labelName, labelValue), { selector: ([n]) => n.name, maxLength: 6 });

const lineFor = (pairs: [{ name: string; written: string }, string][], i: number): string =>
  `m{${pairs.map(([n, v]) => `${n.written}="${escapeLabelValue(v)}"`).join(',')}} ${i}\n`;

describe('label escaping round-trip', () => {
  it('many lines with varying label sets (names, order, quoting) each decode exactly', () => {
    fc.assert(
      // Distinct label sets: two samples of one series in one exposition are a duplicate (reported).
      fc.property(
        fc.uniqueArray(labelSet, {
          minLength: 1,
          maxLength: 10,
          selector: (pairs) => JSON.stringify(pairs.map(([n, v]) => [n.name, v]).sort()),
        }),
        (rows) => {
          const r = parsePrometheus(rows.map(lineFor).join(''));
          expect(r.errors).toEqual([]);
          const got = r.families[0]?.samples.map((s) => s.labels);
          expect(got).toEqual(rows.map((pairs) => Object.fromEntries(pairs.map(([n, v]) => [n.name, v]))));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('any label values (and quoted UTF-8 label names) come back exactly', () => {
    fc.assert(
      fc.property(labelSet, fc.boolean(), (pairs, quotedMetric) => {
        const inner = pairs.map(([n, v]) => `${n.written}="${escapeLabelValue(v)}"`);
        const line = quotedMetric
          ? `{"my.metric"${inner.map((p) => ',' + p).join('')}} 1\n`
          : `metric_x{${inner.join(',')}} 1\n`;
        const r = parsePrometheus(line);
        expect(r.errors).toEqual([]);
        const s = r.families[0]?.samples[0];
        expect(s?.name).toBe(quotedMetric ? 'my.metric' : 'metric_x');
        expect(s?.labels).toEqual(Object.fromEntries(pairs.map(([n, v]) => [n.name, v])));
        expect(Object.keys(s?.labels ?? {})).toEqual(pairs.map(([n]) => n.name));
      }),
      { numRuns: 400 },
    );
  });

  it('consecutive lines with repeated values (the lexer reuses strings) still decode each line', () => {
    // Distinct label sets: the same series twice is a duplicate, left out with an error (its own test).
    const rowsArb = fc.uniqueArray(fc.tuple(labelValue, labelValue), {
      minLength: 1,
      maxLength: 8,
      selector: ([a, b]) => JSON.stringify([a, b]),
    });
    fc.assert(
      fc.property(rowsArb, (rows) => {
        const body = rows
          .map(([a, b], i) => `m{a="${escapeLabelValue(a)}",b="${escapeLabelValue(b)}"} ${i}\n`)
          .join('');
        const got = parsePrometheus(body).families[0]?.samples.map((s) => [s.labels.a, s.labels.b, s.value]);
        expect(got).toEqual(rows.map(([a, b], i) => [a, b, i]));
      }),
    );
  });
});

/** Go's strconv.FormatFloat(v, 'g', -1, 64) as prometheus_client and Go emit it: e+06, not e+6. */
function goStyle(v: number): string {
  const s = String(v);
  return s.replace(/e([+-])(\d)$/, 'e$10$2');
}

// -0 is covered by the table test: JS String(-0) is "0", unlike Go's "-0".
const finite = fc.double({ noNaN: true, noDefaultInfinity: true }).filter((v) => !Object.is(v, -0));

describe('number formats', () => {
  it('Go/Python/C++ float spellings of a finite value parse back to it', () => {
    fc.assert(
      fc.property(finite, fc.integer({ min: 1, max: 17 }), (v, digits) => {
        expect(parsePromNumber(String(v))).toBe(v);
        expect(parsePromNumber(goStyle(v))).toBe(v);
        expect(parsePromNumber(v.toExponential())).toBe(v);
        // %g with N significant digits (llama.cpp uses 6), Go-padded exponent
        const g = goStyle(Number(v.toPrecision(digits)));
        expect(parsePromNumber(g)).toBe(Number(v.toPrecision(digits)));
        // old prometheus_client wrote three-digit exponents: 1.2e+010
        const e3 = v
          .toExponential()
          .replace(/e([+-])(\d+)$/, (_m, sg: string, d: string) => `e${sg}${d.padStart(3, '0')}`);
        expect(parsePromNumber(e3)).toBe(v);
      }),
      { numRuns: 500 },
    );
  });

  it('integral values written as 8, 8.0 or 8.000 (the in-place fast path) equal Number()', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -(2 ** 53), max: 2 ** 53 }),
        fc.constantFrom('', '.', '.0', '.000'),
        (n, tail) => {
          const r = parsePrometheus(`m ${n}${tail}\n`);
          expect(r.errors).toEqual([]);
          expect(r.families[0]?.samples[0]?.value).toBe(Number(`${n}${tail}`));
        },
      ),
    );
  });

  // Decimal tokens as emitters write them: sign, digits, optional fraction, optional exponent.
  const decimalToken = fc
    .tuple(
      fc.constantFrom('', '-', '+'),
      fc.stringMatching(/^[0-9]{0,12}$/),
      fc.option(fc.stringMatching(/^[0-9]{0,12}$/)),
      fc.option(
        fc.tuple(
          fc.constantFrom('e', 'E'),
          fc.constantFrom('', '+', '-'),
          fc.oneof(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 400 })),
        ),
      ),
    )
    .map(([sign, int, frac, exp]) => {
      let t = sign + int;
      if (frac !== null) t += '.' + frac;
      if (exp !== null) t += exp[0] + exp[1] + String(exp[2]);
      return t;
    });

  it('the in-place decimal reader gives exactly Number(token) whenever it answers (Clinger fast path)', () => {
    let answered = 0;
    fc.assert(
      fc.property(decimalToken, fc.string({ maxLength: 3 }), (tok, pad) => {
        // In place inside a larger string: only s[start, end) may be read.
        const s = pad + tok + pad;
        const got = decimalValue(s, pad.length, pad.length + tok.length);
        const want = Number(tok);
        if (got === undefined) return; // left to parsePromNumber, covered above
        answered++;
        expect(Number.isNaN(want)).toBe(false);
        expect(Object.is(got, want)).toBe(true);
        expect(parsePromNumber(tok)).toBe(want);
      }),
      { numRuns: 3000 },
    );
    expect(answered).toBeGreaterThan(1000); // the fast path is the common path, not a corner
  });

  it('the in-place decimal reader answers for the shapes real exporters write', () => {
    const cases: [string, number][] = [
      ['0', 0],
      ['-0', -0],
      ['182.0', 182],
      ['0.005', 0.005],
      ['2.5', 2.5],
      ['.5', 0.5],
      ['5.', 5],
      ['+3', 3],
      ['1.2571459584e+10', 12571459584],
      ['1.88370944e+09', 1883709440],
      ['3.0e-05', 3e-5],
      ['1E3', 1000],
      ['0.1234567890123', 0.1234567890123],
      ['9007199254740991', 9007199254740991],
    ];
    for (const [tok, want] of cases) expect(Object.is(decimalValue(tok, 0, tok.length), want)).toBe(true);
    // Not simple enough: left to the full reader (which accepts or rejects them as Go does).
    for (const tok of [
      '',
      '-',
      '.',
      'e5',
      '1e',
      '1e+',
      '+Inf',
      'NaN',
      '0x10',
      '1_0',
      '1.2.3',
      '1e-400',
      '12345678901234567890',
    ])
      expect(decimalValue(tok, 0, tok.length)).toBeUndefined();
  });

  it('values and le bounds read in place equal Number() through the whole parser', () => {
    fc.assert(
      fc.property(
        // Distinct bounds (a repeated one is a duplicate series), counts that never fall.
        fc.uniqueArray(
          decimalToken.filter((t) => /[0-9]/.test(t) && !Number.isNaN(Number(t))),
          { minLength: 1, maxLength: 6, selector: (t) => Number(t) },
        ),
        (toks) => {
          const sorted = [...toks].sort((a, b) => Number(a) - Number(b));
          const body =
            '# TYPE h histogram\n' +
            sorted.map((t, i) => `h_bucket{le="${t}"} ${i}\n`).join('') +
            `h_bucket{le="+Inf"} ${toks.length}\n` +
            toks.map((t, i) => `g{i="${i}"} ${t}\n`).join('');
          const r = parsePrometheus(body);
          expect(r.errors).toEqual([]);
          const g = r.families.find((f) => f.name === 'g');
          expect(g?.samples.map((x) => x.value)).toEqual(toks.map(Number));
          const bounds = r.families.find((f) => f.name === 'h')?.histograms?.[0]?.buckets.map((b) => b.le);
          expect(bounds).toEqual([...toks.map(Number), Infinity].sort((a, b) => a - b));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('Inf and NaN variants, in any case, as values and le bounds', () => {
    const inf = fc.tuple(
      fc.constantFrom('', '+', '-'),
      fc.constantFrom('inf', 'infinity'),
      fc.array(fc.boolean(), { maxLength: 8 }),
    );
    fc.assert(
      fc.property(inf, ([sign, word, caps]) => {
        const cased = [...word].map((c, i) => (caps[i] ? c.toUpperCase() : c)).join('');
        const text = sign + cased;
        const want = sign === '-' ? -Infinity : Infinity;
        expect(parsePromNumber(text)).toBe(want);
        expect(parsePrometheus(`m ${text}\n`).families[0]?.samples[0]?.value).toBe(want);
      }),
    );
    for (const nan of ['NaN', 'Nan', 'nan', 'nAN'])
      expect(parsePrometheus(`m ${nan}\n`).families[0]?.samples[0]?.value).toBeNaN();
  });

  it('spellings Go rejects (underscores, hex floats with p) are reported, not misread', () => {
    fc.assert(
      fc.property(finite, fc.nat(), fc.constantFrom('_', 'p', 'P', 'x'), (v, at, bad) => {
        const s = String(v);
        const i = at % (s.length + 1);
        const broken = s.slice(0, i) + bad + s.slice(i);
        expect(parsePromNumber(broken)).toBeUndefined();
        const r = parsePrometheus(`m ${broken}\n`);
        expect(r.families).toEqual([]);
        expect(r.errors[0]?.line).toBe(1);
      }),
    );
  });
});

describe('robustness', () => {
  it('never throws, and error line numbers stay within the body', () => {
    const line = fc.oneof(
      fc.string({ unit: fc.oneof(tricky, anyChar), maxLength: 30 }),
      fc.constantFrom(
        '# TYPE x histogram',
        'x_bucket{le="1"} 1',
        '# EOF',
        '# HELP x \\q',
        'x_sum 1',
        '{"a"} 1',
      ),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 20 }), fc.boolean(), (lines, om) => {
        const body = lines.join('\n');
        const r = parsePrometheus(body, { format: om ? 'openmetrics' : 'text' });
        const max = body.split('\n').length + 1;
        for (const e of r.errors) {
          expect(e.line).toBeGreaterThanOrEqual(1);
          expect(e.line).toBeLessThanOrEqual(max);
        }
      }),
      { numRuns: 300 },
    );
  });
});
