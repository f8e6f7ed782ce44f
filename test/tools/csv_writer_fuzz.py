"""Makes CSV/TSV files with Python's csv.writer and records what Python's csv.reader reads back from each.

Usage: csv_writer_fuzz.py OUT_DIR SEED COUNT
Writes OUT_DIR/NNN.csv|tsv and OUT_DIR/expected.json: [{file, header, rows, bad}], where rows are the records with
as many fields as the header and bad counts the others (blank lines hold no record, as csv.DictReader skips them).
The dialects vary over what csv.writer makes: QUOTE_MINIMAL/ALL/NONNUMERIC, CRLF/LF/CR line terminators, comma
or tab, with or without a UTF-8 BOM, with or without a line break after the last record. Fields mix delimiters,
quotes (written doubled), CR, LF, CRLF, spaces, empty strings and non-ASCII text.
"""
import csv
import json
import os
import random
import sys

PIECES = ['a', 'b', 'Paris', ' ', '  ', ',', '\t', '"', '""', '\n', '\r', '\r\n', 'é', '中文', '🙂', "'", ';', '#', '0', '1.5', '-', '\\']

HEADER_TAILS = ['', ' x', ',y', '"z"', '\n', '\t']


def text(rng):
    if rng.random() < 0.1:
        return ''
    return ''.join(rng.choice(PIECES) for _ in range(rng.randint(1, 8)))


def value(rng, quoting):
    if quoting == csv.QUOTE_NONNUMERIC and rng.random() < 0.3:
        return rng.choice([0, 7, -3, 2.5, 1e20])
    return text(rng)


def main():
    out, seed, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    rng = random.Random(seed)
    expected = []
    for n in range(count):
        delim = rng.choice([',', '\t'])
        quoting = rng.choice([csv.QUOTE_MINIMAL, csv.QUOTE_MINIMAL, csv.QUOTE_ALL, csv.QUOTE_NONNUMERIC])
        term = rng.choice(['\r\n', '\r\n', '\n', '\r'])
        ncols = rng.randint(1, 6)
        header = ['id'] + ['c' + str(k) + rng.choice(HEADER_TAILS) for k in range(1, ncols)]
        name = f'{n:03d}.{"csv" if delim == "," else "tsv"}'
        path = os.path.join(out, name)
        with open(path, 'w', newline='', encoding='utf-8-sig' if rng.random() < 0.2 else 'utf-8') as f:
            w = csv.writer(f, delimiter=delim, quoting=quoting, lineterminator=term)
            w.writerow(header)
            for r in range(rng.randint(0, 60)):
                w.writerow([str(r)] + [value(rng, quoting) for _ in range(ncols - 1)])
        if rng.random() < 0.3:
            data = open(path, 'rb').read()
            if data.endswith(term.encode()):
                open(path, 'wb').write(data[: -len(term)])
        with open(path, newline='', encoding='utf-8-sig') as f:
            records = [r for r in csv.reader(f, delimiter=delim) if r]
        head, body = records[0], records[1:]
        expected.append({'file': name, 'header': head, 'rows': [r for r in body if len(r) == len(head)], 'bad': sum(len(r) != len(head) for r in body)})
    # The file: 300 rows whose question holds doubled quotes and a newline inside one quoted field.
    name = 'issue-300.csv'
    with open(os.path.join(out, name), 'w', newline='', encoding='utf-8') as f:
        w = csv.writer(f)
        w.writerow(['id', 'question', 'answer', 'distractor'])
        for i in range(300):
            q = f'Which city, among these, is the capital of "Country {i}"?\nPick one.' if i % 10 == 0 else f'Capital of country {i}?'
            w.writerow([i, q, 'Paris', 'Lyon'])
    with open(os.path.join(out, name), newline='', encoding='utf-8') as f:
        records = list(csv.reader(f))
    expected.append({'file': name, 'header': records[0], 'rows': records[1:], 'bad': 0})
    json.dump(expected, open(os.path.join(out, 'expected.json'), 'w'))


if __name__ == '__main__':
    main()
