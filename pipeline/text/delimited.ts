// Records of delimited text (CSV keys and statistics beside papers, the TSVs we export): RFC 4180
// quoting (a field that starts with a quote runs to its closing quote, "" inside is one quote),
// lines ended by LF, CRLF or CR. Cells come back as written; callers trim or not.
export function delimitedRecords(text: string, separator: ',' | '\t'): string[][] {
  const records: string[][] = [];
  let row: string[] = [], field = '', quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') { field += '"'; i++; }
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === separator) { row.push(field); field = ''; }
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field); records.push(row);
      row = []; field = '';
    } else field += c;
  }
  if (field || row.length) { row.push(field); records.push(row); }
  return records;
}
