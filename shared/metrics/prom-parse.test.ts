import { describe, expect, it } from 'vitest';
import { parsePromNumber } from './prom-number.ts';
import { detectFormat, MAX_COMMENT, parsePrometheus } from './prom-parse.ts';
import type { ParseResult } from './prom-types.ts';

const fam = (r: ParseResult, name: string) => r.families.find((f) => f.name === name);

describe('malformed lines', () => {
  // Line numbers are 1-based; the body has no trailing newline on purpose.
  const body = [
    '# HELP a_total A counter.', //                 1
    '# TYPE a_total counter', //                    2
    'a_total{x="1"} 5', //                          3 ok
    'a_total{x="2" 7', //                           4 unterminated label set
    'a_total{x="3"} 1_000', //                      5 underscore in value
    '', //                                          6 blank
    'b 0x1p3', //                                   7 hex float
    'b{x="1",x="2"} 1', //                          8 duplicate label
    'c{x="a\\tb"} 2', //                            9 invalid escape: kept literally, reported
    'd 5 123 extra', //                             10 spurious text after timestamp
    '# TYPE e bogus', //                            11 unknown type
    'e 1', //                                       12 ok (untyped)
    'f 2 1700000000000', //                         13 ok, timestamp in ms
    '1bad 3', //                                    14 invalid metric name
    'g{__name__="x"} 1', //                         15 reserved label name
    'h{le="0.1"}', //                               16 missing value
    'f2 3 1.5', //                                  17 text timestamps are integers
    '# TYPE a_total gauge', //                      18 second TYPE
    'i 4', //                                       19 ok, no trailing newline
  ].join('\n');
  const r = parsePrometheus(body);

  it('reports each bad line with its number and text', () => {
    expect(r.errors.map((e) => e.line)).toEqual([4, 5, 7, 8, 9, 10, 11, 14, 15, 16, 17, 18]);
    expect(r.errors[0]).toEqual({
      line: 4,
      message: 'expected "," or "}" in label set',
      text: 'a_total{x="2" 7',
    });
    expect(r.errors[1]?.message).toMatch(/invalid value "1_000"/);
    expect(r.errors[3]?.message).toMatch(/duplicate label "x"/);
    expect(r.errors[4]?.message).toMatch(/invalid escape/);
    expect(r.errors[5]?.message).toMatch(/spurious/);
    expect(r.errors[6]?.message).toMatch(/unknown metric type "bogus"/);
    expect(r.errors[11]?.message).toMatch(/second TYPE/);
  });

  it('parses everything else', () => {
    expect(r.families.map((f) => [f.name, f.type, f.samples.length])).toEqual([
      ['a_total', 'counter', 1],
      ['c', 'untyped', 1],
      ['e', 'untyped', 1],
      ['f', 'untyped', 1],
      ['i', 'untyped', 1],
    ]);
    expect(fam(r, 'c')?.samples[0]?.labels).toEqual({ x: 'a\\tb' });
    expect(fam(r, 'f')?.samples[0]?.timestampMs).toBe(1700000000000);
    expect(fam(r, 'i')?.samples[0]?.value).toBe(4);
  });

  it('never throws on garbage and keeps line numbers in range', () => {
    const junk =
      '{{{\n"\\\n# TYPE\n# HELP "x\n}\n=\n# TYPE x histogram\nx_bucket 1\nx_bucket{le="abc"} 1\n\u0000';
    const g = parsePrometheus(junk);
    expect(g.families).toEqual([]);
    for (const e of g.errors) expect(e.line).toBeGreaterThanOrEqual(1);
    expect(g.errors.find((e) => e.line === 8)?.message).toBe('missing "le" label');
    expect(g.errors.find((e) => e.line === 9)?.message).toBe('invalid "le" value "abc"');
  });
});

describe('families and grouping', () => {
  it('groups a histogram written in any order; le compared numerically; label order ignored', () => {
    const r = parsePrometheus(
      [
        '# TYPE lat histogram',
        'lat_count{a="1",b="2"} 10',
        'lat_bucket{le="+Inf",b="2",a="1"} 10',
        'lat_sum{b="2",a="1"} 4.5',
        'lat_bucket{a="1",b="2",le="1.0"} 8',
        'lat_bucket{a="1",le="1e-1",b="2"} 2',
        'lat_bucket{a="1",b="2",le="0.5"} 5',
        'lat_bucket{a="x",b="2",le="+Inf"} 1',
        '',
      ].join('\n'),
    );
    const hs = fam(r, 'lat')?.histograms ?? [];
    expect(hs).toHaveLength(2);
    expect(hs[0]).toEqual({
      labels: { a: '1', b: '2' },
      buckets: [
        { le: 0.1, count: 2 },
        { le: 0.5, count: 5 },
        { le: 1, count: 8 },
        { le: Infinity, count: 10 },
      ],
      sum: 4.5,
      count: 10,
    });
    // no _count line: the +Inf bucket stands in; no _sum: NaN
    expect(hs[1]?.count).toBe(1);
    expect(hs[1]?.sum).toBeNaN();
  });

  it('groups summaries; samples without TYPE form untyped families', () => {
    const r = parsePrometheus(
      '# TYPE s summary\ns_sum 3\ns{quantile="0.9"} 2\ns{quantile="0.5"} 1\ns_count 4\nloose_sum 1\n',
    );
    expect(fam(r, 's')?.summaries).toEqual([
      {
        labels: {},
        quantiles: [
          { quantile: 0.5, value: 1 },
          { quantile: 0.9, value: 2 },
        ],
        sum: 3,
        count: 4,
      },
    ]);
    expect(fam(r, 'loose_sum')?.type).toBe('untyped');
  });

  it('accepts quoted UTF-8 names, tabs, CRLF, a BOM, a trailing comma and empty braces', () => {
    const body =
      '\ufeff# TYPE "my.metric" gauge\r\n{"my.metric", "label.name"="v",}\t 1\r\n  \tplain{} \t2\r\nx{a="b"}3\r\n';
    const r = parsePrometheus(body);
    expect(r.errors).toEqual([]);
    expect(fam(r, 'my.metric')?.samples[0]).toEqual({
      name: 'my.metric',
      labels: { 'label.name': 'v' },
      value: 1,
    });
    expect(fam(r, 'plain')?.samples[0]?.value).toBe(2);
    expect(fam(r, 'x')?.samples[0]?.value).toBe(3);
  });

  it('a quoted UTF-8 name on one line does not make the same name legal unquoted on the next', () => {
    const r = parsePrometheus('{"a.b", "x.y"="1"} 1\na.b 2\nm{x.y="1"} 3\n');
    expect(r.errors.map((e) => e.line)).toEqual([2, 3]);
    expect(r.families.map((f) => f.name)).toEqual(['a.b']);
  });

  it('keeps a __proto__ label as data', () => {
    const s = parsePrometheus('m{__proto__="p",a="b"} 1\n').families[0]?.samples[0];
    expect(Object.keys(s?.labels ?? {})).toEqual(['__proto__', 'a']);
    expect(s?.labels.__proto__).toBe('p');
  });

  it('reports a TYPE after samples and a second HELP', () => {
    const r = parsePrometheus('m 1\n# TYPE m gauge\n# HELP n x\n# HELP n y\nn 1\n');
    expect(r.errors.map((e) => [e.line, e.message])).toEqual([
      [2, 'TYPE line for m after its samples'],
      [4, 'second HELP line for n'],
    ]);
    expect(fam(r, 'n')?.help).toBe('x');
  });
});

describe('formats', () => {
  it('detects OpenMetrics from the content type or a final # EOF', () => {
    expect(detectFormat('a 1\n', 'application/openmetrics-text; version=1.0.0; charset=utf-8')).toBe(
      'openmetrics',
    );
    expect(detectFormat('a 1\n# EOF\n', 'text/plain; version=0.0.4')).toBe('text');
    expect(detectFormat('a 1\n# EOF\n')).toBe('openmetrics');
    expect(detectFormat('a 1\n')).toBe('text');
  });

  it('OpenMetrics: timestamps in seconds, content after # EOF and a missing # EOF are reported', () => {
    const r = parsePrometheus('a 1 1700000000.5\n# EOF\nb 2\n', { format: 'openmetrics' });
    expect(r.families[0]?.samples[0]?.timestampMs).toBe(1700000000500);
    expect(r.errors).toEqual([{ line: 3, message: 'content after "# EOF"', text: 'b 2' }]);
    const noEof = parsePrometheus('a 1\n', { contentType: 'application/openmetrics-text' });
    expect(noEof.errors.map((e) => e.message)).toEqual(['OpenMetrics body does not end with "# EOF"']);
    expect(noEof.families[0]?.type).toBe('unknown');
  });

  it('OpenMetrics gaugehistogram, stateset and info are tolerated', () => {
    const body = [
      '# TYPE q gaugehistogram',
      'q_bucket{le="1"} 2',
      'q_bucket{le="+Inf"} 3',
      'q_gcount 3',
      'q_gsum 2.5',
      '# TYPE st stateset',
      'st{st="a"} 1',
      'st{st="b"} 0',
      '# TYPE inf info',
      'inf_info{v="1"} 1',
      '# EOF',
    ].join('\n');
    const r = parsePrometheus(body);
    expect(r.errors).toEqual([]);
    expect(fam(r, 'q')?.histograms?.[0]).toMatchObject({ count: 3, sum: 2.5 });
    expect(fam(r, 'st')?.samples).toHaveLength(2);
    expect(fam(r, 'inf')?.samples[0]?.name).toBe('inf_info');
  });
});

describe('parsePromNumber', () => {
  it.each([
    ['8.0', 8],
    ['1.2571459584e+10', 1.2571459584e10],
    ['1.48121e+06', 1481210],
    ['1.2e+010', 1.2e10],
    ['.5', 0.5],
    ['-0.25', -0.25],
    ['-0', -0],
    ['+3', 3],
    ['5.', 5],
    ['+Inf', Infinity],
    ['Inf', Infinity],
    ['inf', Infinity],
    ['-Inf', -Infinity],
    ['+infinity', Infinity],
    ['0.07500000000000001', 0.07500000000000001],
  ])('%s → %d', (s, v) => {
    expect(parsePromNumber(s)).toBe(v);
  });

  it.each(['NaN', 'Nan', 'nan', 'NAN'])('%s is NaN', (s) => {
    expect(parsePromNumber(s)).toBeNaN();
  });

  it.each(['', '1_000', '0x1p-2', '0x10', '1p3', '-NaN', 'Infinit', '1e', '.', '--1', '1..2', 'abc', '١'])(
    '%j is rejected',
    (s) => {
      expect(parsePromNumber(s)).toBeUndefined();
    },
  );
});

describe('hostile expositions: reported and skipped, never fatal', () => {
  it('a 20 MB # HELP line (plain or with a quoted name) is cut and said; the rest parses', () => {
    const plain = parsePrometheus(`# HELP foo ${'a'.repeat(20_000_000)}\n# TYPE foo gauge\nfoo 1\nbar 2\n`);
    expect(plain.families.map((f) => f.name)).toEqual(['foo', 'bar']);
    expect(plain.families[0]!.help.length).toBeLessThan(MAX_COMMENT);
    expect(plain.errors[0]!.message).toMatch(/comment line of 20000011 characters cut to 65536/);
    // A quoted name running past the cut: the line is reported, no stack overflow.
    const quoted = parsePrometheus(`# HELP "foo${'b'.repeat(10_000_000)}" x\nfoo 1\n`);
    expect(quoted.families.map((f) => f.name)).toEqual(['foo']);
    expect(quoted.errors.map((e) => e.message)).toContain('unterminated quoted name in # HELP');
  });

  it('a second sample of one series is a duplicate, the first kept', () => {
    const r = parsePrometheus('# TYPE q gauge\nq{a="1",b="2"} 5\nq{a="1",b="3"} 9\nq{a="1",b="2"} 7\n');
    expect(r.families[0]!.samples.map((s) => s.value)).toEqual([5, 9]);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatchObject({ line: 4, message: 'duplicate sample of series q (the first kept)' });
  });

  it('a histogram with negative or falling counts is left out and said; a sound one beside it stays', () => {
    const r = parsePrometheus(
      [
        '# TYPE h histogram',
        'h_bucket{s="bad",le="0.1"} 5',
        'h_bucket{s="bad",le="1"} 3',
        'h_bucket{s="bad",le="+Inf"} 3',
        'h_count{s="bad"} 3',
        'h_bucket{s="neg",le="+Inf"} -2',
        'h_count{s="neg"} -2',
        'h_bucket{s="ok",le="0.1"} 1',
        'h_bucket{s="ok",le="+Inf"} 4',
        'h_count{s="ok"} 4',
        'h_sum{s="ok"} 1.5',
        '',
      ].join('\n'),
    );
    expect(r.families[0]!.histograms!.map((h) => h.labels.s)).toEqual(['ok']);
    const msgs = r.errors.map((e) => e.message).join('\n');
    expect(msgs).toMatch(
      /histogram h\{s="bad"\} left out: bucket le=1 count 3 below the previous bucket's 5/,
    );
    expect(msgs).toMatch(/histogram h\{s="neg"\} left out: bucket le=Infinity count -2/);
  });
});
