// An IMS QTI 2.1 content package: imsmanifest.xml, one assessmentItem per question, an
// assessmentTest (a section per paper) and the figures as files under images/, in one zip.
// choiceInteraction for one or several options (correctResponse; several are scored by a mapping,
// a share per right option and as much back per wrong one, never below 0), textEntryInteraction for
// a value (numbers compared as numbers, text case-insensitively), extendedTextInteraction for a free
// answer, with the key for the scorer in a rubricBlock. SCORE reaches MAXSCORE, the question's points.
// Formulas are MathML (markup.ts); every item validates against the QTI 2.1 XSD (test/classroom-export.test.ts).
import fs from 'node:fs';
import { zipSync, type Zippable } from 'fflate';
import { escapeXml, markdownToInlineMarkup, markdownToMarkup } from './markup.ts';
import { DEFAULT_POINTS } from './moodle.ts';
import { questionLabel, type ClassroomQuestion, type ImageFile } from './question.ts';

const QTI_NS = 'xmlns="http://www.imsglobal.org/xsd/imsqti_v2p1" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ' +
  'xsi:schemaLocation="http://www.imsglobal.org/xsd/imsqti_v2p1 http://www.imsglobal.org/xsd/qti/qtiv2p1/imsqti_v2p1.xsd"';
const CP_NS = 'xmlns="http://www.imsglobal.org/xsd/imscp_v1p1" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ' +
  'xsi:schemaLocation="http://www.imsglobal.org/xsd/imscp_v1p1 http://www.imsglobal.org/xsd/qti/qtiv2p1/qtiv2p1_imscpv1p2_v1p0.xsd"';

export const IMAGES_DIR = 'images';
export const TEST_FILE = 'assessment.xml';
export const MANIFEST_FILE = 'imsmanifest.xml';

/** An identifier QTI accepts (an NCName: a letter first, then letters, digits, `-`, `_`, `.`), ASCII only so it can name a file. */
export function qtiIdentifier(prefix: string, value: string): string {
  return `${prefix}-${value.replace(/[^A-Za-z0-9._-]+/g, '_')}`;
}

/** Choice identifiers by position: A, B, …, Z, then C27, C28 …. */
const choiceId = (k: number) => (k < 26 ? String.fromCharCode(65 + k) : `C${k + 1}`);

const num = (v: number) => String(Number(v.toFixed(7)));

interface Item { identifier: string; file: string; question: ClassroomQuestion; xml: string }

function declarations(q: ClassroomQuestion, points: number, choices: boolean): string[] {
  const out: string[] = [];
  if (choices) {
    const multiple = q.kind === 'multi' || (q.kind === 'essay' && q.type === 'mcq-multi');
    const correct = q.options.map((o, k) => ({ o, k })).filter(x => x.o.correct);
    const key = q.kind === 'essay' ? [] : correct;
    out.push(`  <responseDeclaration identifier="RESPONSE" cardinality="${multiple ? 'multiple' : 'single'}" baseType="identifier">`);
    if (key.length) out.push(`    <correctResponse>${key.map(x => `<value>${choiceId(x.k)}</value>`).join('')}</correctResponse>`);
    if (q.kind === 'multi') {
      const wrong = q.options.length - correct.length;
      out.push(`    <mapping lowerBound="0" upperBound="${num(points)}" defaultValue="0">`,
        ...q.options.map((o, k) => `      <mapEntry mapKey="${choiceId(k)}" mappedValue="${num(o.correct ? points / correct.length : wrong ? -points / wrong : 0)}"/>`),
        '    </mapping>');
    }
    out.push('  </responseDeclaration>');
  } else if (q.kind === 'numerical') {
    out.push('  <responseDeclaration identifier="RESPONSE" cardinality="single" baseType="float">',
      `    <correctResponse><value>${num(q.value!.number)}</value></correctResponse>`, '  </responseDeclaration>');
  } else if (q.kind === 'short') {
    out.push('  <responseDeclaration identifier="RESPONSE" cardinality="single" baseType="string">',
      `    <correctResponse><value>${escapeXml(q.answer)}</value></correctResponse>`, '  </responseDeclaration>');
  } else {
    out.push('  <responseDeclaration identifier="RESPONSE" cardinality="single" baseType="string"/>');
  }
  out.push('  <outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"><defaultValue><value>0</value></defaultValue></outcomeDeclaration>',
    `  <outcomeDeclaration identifier="MAXSCORE" cardinality="single" baseType="float"><defaultValue><value>${num(points)}</value></defaultValue></outcomeDeclaration>`);
  return out;
}

/** Response processing: null where a person scores the answer. */
function processing(q: ClassroomQuestion): string | null {
  const full = '<setOutcomeValue identifier="SCORE"><variable identifier="MAXSCORE"/></setOutcomeValue>';
  const when = (condition: string) => `  <responseProcessing>\n    <responseCondition><responseIf>${condition}${full}</responseIf></responseCondition>\n  </responseProcessing>`;
  const response = '<variable identifier="RESPONSE"/><correct identifier="RESPONSE"/>';
  if (q.kind === 'choice') return when(`<match>${response}</match>`);
  if (q.kind === 'multi') return '  <responseProcessing>\n    <setOutcomeValue identifier="SCORE"><mapResponse identifier="RESPONSE"/></setOutcomeValue>\n  </responseProcessing>';
  if (q.kind === 'numerical') {
    const t = q.value!.tolerance;
    return when(t ? `<equal toleranceMode="absolute" tolerance="${num(t)}">${response}</equal>` : `<equal toleranceMode="exact">${response}</equal>`);
  }
  if (q.kind === 'short') return when(`<stringMatch caseSensitive="false">${response}</stringMatch>`);
  return null;
}

const imageSrc = (f: ImageFile) => `${IMAGES_DIR}/${encodeURIComponent(f.name)}`;

/** What the scorer is shown beside a hand-scored answer: the key, each part's marks and answer. */
function scorerRubric(q: ClassroomQuestion): string | null {
  const lines: string[] = [];
  if (q.answer !== null) lines.push(`<p>Key: ${escapeXml(q.answer)}</p>`);
  if (q.parts.length) lines.push(`<ul>${q.parts.map(p => `<li>${escapeXml(p.label)}${p.marks !== null ? ` [${p.marks}]` : ''}${p.answer ? `: ${escapeXml(p.answer)}` : ''}</li>`).join('')}</ul>`);
  if (q.essayReason && q.type !== 'free') lines.push(`<p>Scored by hand: ${escapeXml(q.essayReason)}.</p>`);
  return lines.length ? `    <rubricBlock view="scorer">${lines.join('')}</rubricBlock>` : null;
}

function itemXml(q: ClassroomQuestion, identifier: string): string {
  const points = q.points ?? DEFAULT_POINTS;
  // A question with options stays a choice even with no usable key: a person scores it then.
  const choices = q.options.length > 0 && (q.kind === 'choice' || q.kind === 'multi' || q.kind === 'essay');
  const body: string[] = [];
  const rubric = q.kind === 'essay' || q.parts.length ? scorerRubric(q) : null;
  if (rubric) body.push(rubric);
  body.push(`    <div>${markdownToMarkup(q.stem, 'qti')}</div>`);
  for (const [i, f] of q.figures.entries()) body.push(`    <div><img src="${imageSrc(f)}" alt="Figure ${i + 1}"/></div>`);
  if (choices) {
    const max = q.kind === 'multi' || q.type === 'mcq-multi' ? 0 : 1;
    body.push(`    <choiceInteraction responseIdentifier="RESPONSE" shuffle="false" maxChoices="${max}">`,
      ...q.options.map((o, k) => {
        const text = markdownToInlineMarkup(o.text, 'qti');
        const image = o.image ? `${text ? '<br/>' : ''}<img src="${imageSrc(o.image)}" alt="${escapeXml(o.label)}"/>` : '';
        return `      <simpleChoice identifier="${choiceId(k)}">${escapeXml(o.label)} ${text}${image}</simpleChoice>`;
      }),
      '    </choiceInteraction>');
  } else if (q.kind === 'numerical' || q.kind === 'short') {
    body.push(`    <p><textEntryInteraction responseIdentifier="RESPONSE" expectedLength="${Math.max(8, (q.answer ?? '').length + 2)}"/></p>`);
  } else {
    body.push(`    <extendedTextInteraction responseIdentifier="RESPONSE" expectedLines="${q.type === 'free' ? 12 : 4}"/>`);
  }
  const lang = q.language && q.language !== 'und' ? ` xml:lang="${escapeXml(q.language)}"` : '';
  const rp = processing(q);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<assessmentItem ${QTI_NS} identifier="${identifier}" title="${escapeXml(questionLabel(q))}" adaptive="false" timeDependent="false"${lang}>`,
    ...declarations(q, points, choices),
    '  <itemBody>',
    ...body,
    '  </itemBody>',
    ...(rp ? [rp] : []),
    '</assessmentItem>',
    '',
  ].join('\n');
}

function testXml(items: readonly Item[], title: string, identifier: string): string {
  const sections: string[] = [];
  let paper: string | null = null;
  let k = 0;
  for (const it of items) {
    if (it.question.paper !== paper) {
      if (paper !== null) sections.push('    </assessmentSection>');
      paper = it.question.paper;
      sections.push(`    <assessmentSection identifier="section-${++k}" title="${escapeXml(paper)}" visible="true">`);
    }
    sections.push(`      <assessmentItemRef identifier="${it.identifier}" href="${it.file}"/>`);
  }
  if (paper !== null) sections.push('    </assessmentSection>');
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<assessmentTest ${QTI_NS} identifier="${identifier}" title="${escapeXml(title)}">`,
    '  <outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"><defaultValue><value>0</value></defaultValue></outcomeDeclaration>',
    '  <outcomeDeclaration identifier="MAXSCORE" cardinality="single" baseType="float"><defaultValue><value>0</value></defaultValue></outcomeDeclaration>',
    '  <testPart identifier="part-1" navigationMode="nonlinear" submissionMode="simultaneous">',
    ...sections,
    '  </testPart>',
    '  <outcomeProcessing>',
    '    <setOutcomeValue identifier="SCORE"><sum><testVariables variableIdentifier="SCORE"/></sum></setOutcomeValue>',
    '    <setOutcomeValue identifier="MAXSCORE"><sum><testVariables variableIdentifier="MAXSCORE"/></sum></setOutcomeValue>',
    '  </outcomeProcessing>',
    '</assessmentTest>',
    '',
  ].join('\n');
}

function manifestXml(items: readonly Item[], testId: string): string {
  const resources = [
    `    <resource identifier="${testId}" type="imsqti_test_xmlv2p1" href="${TEST_FILE}">`,
    `      <file href="${TEST_FILE}"/>`,
    ...items.map(it => `      <dependency identifierref="${it.identifier}"/>`),
    '    </resource>',
    ...items.flatMap(it => [
      `    <resource identifier="${it.identifier}" type="imsqti_item_xmlv2p1" href="${it.file}">`,
      `      <file href="${it.file}"/>`,
      ...imagesOf(it.question).map(f => `      <file href="${imageSrc(f)}"/>`),
      '    </resource>',
    ]),
  ];
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<manifest ${CP_NS} identifier="manifest-${testId}">`,
    '  <metadata><schema>QTIv2.1 Package</schema><schemaversion>1.0.0</schemaversion></metadata>',
    `  <organizations/>`,
    '  <resources>',
    ...resources,
    '  </resources>',
    '</manifest>',
    '',
  ].join('\n');
}

const imagesOf = (q: ClassroomQuestion): ImageFile[] => [...q.figures, ...q.options.flatMap(o => (o.image ? [o.image] : []))];

export interface QtiPackage {
  /** Every file of the package by its path inside the zip. */
  files: Map<string, Uint8Array>;
  /** The item files, in question order. */
  items: string[];
}

/** The package's files; `name` identifies the test (an export's label). */
export function qtiPackage(questions: readonly ClassroomQuestion[], name: string, title: string): QtiPackage {
  const used = new Set<string>();
  const items: Item[] = questions.map(q => {
    let identifier = qtiIdentifier('item', q.id);
    for (let k = 2; used.has(identifier); k++) identifier = qtiIdentifier('item', `${q.id}-${k}`);
    used.add(identifier);
    return { identifier, file: `${identifier}.xml`, question: q, xml: itemXml(q, identifier) };
  });
  const testId = qtiIdentifier('test', name);
  const files = new Map<string, Uint8Array>();
  const utf8 = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));
  files.set(MANIFEST_FILE, utf8(manifestXml(items, testId)));
  files.set(TEST_FILE, utf8(testXml(items, title, testId)));
  for (const it of items) {
    files.set(it.file, utf8(it.xml));
    for (const f of imagesOf(it.question)) files.set(`${IMAGES_DIR}/${f.name}`, new Uint8Array(fs.readFileSync(f.file)));
  }
  return { files, items: items.map(it => it.file) };
}

/** The package as one zip; pictures are stored as they are (PNG is compressed already). */
export function zipPackage(pkg: QtiPackage): Uint8Array {
  const entries: Zippable = {};
  for (const [name, data] of pkg.files) entries[name] = [data, { level: name.startsWith(`${IMAGES_DIR}/`) ? 0 : 6 }];
  return zipSync(entries);
}
