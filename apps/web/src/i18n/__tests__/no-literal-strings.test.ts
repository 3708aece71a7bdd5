import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Every text a screen shows comes from the catalogues: a JSX text, a text attribute (label, title, placeholder,
 * aria-label…), a literal shown from a JSX expression, or a toast / set…Error message written in a component is a
 * failure here. Code samples (<code>, <pre>, font-mono) and texts without letters are not texts to translate.
 */
const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const textAttributes = new Set([
  'title',
  'description',
  'label',
  'heading',
  'subheading',
  'aria-label',
  'placeholder',
  'copyLabel',
  'copiedLabel',
  'copyAriaLabel',
  'hint',
  'text',
  'eyebrow',
  'alt',
  'emptyText',
  'confirmLabel',
  'cancelLabel',
  'tooltip',
]);
const textProperties = new Set(['label', 'title', 'description', 'text', 'header', 'placeholder', 'hint', 'emptyText']);
// The product's name and units are not translated.
const hasWord = (s: string) => /\p{L}{2}/u.test(s.replace(/DocFlow|\b(?:ms|[KMG]B|px|pt)\b/g, ''));

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === '__tests__' || e.name === 'testing' ? [] : sourceFiles(p);
    return e.name.endsWith('.tsx') ? [p] : [];
  });
}

function inCode(n: ts.Node): boolean {
  for (let p = n.parent; p; p = p.parent) {
    if (!ts.isJsxElement(p)) continue;
    const o = p.openingElement;
    if (['code', 'pre', 'kbd'].includes(o.tagName.getText())) return true;
    const cls = o.attributes.properties.find(
      (a) => ts.isJsxAttribute(a) && a.name.getText() === 'className' && a.initializer,
    ) as ts.JsxAttribute | undefined;
    if (cls && /font-mono/.test(cls.initializer!.getText())) return true;
  }
  return false;
}

/** A literal that ends up shown: directly in a JSX expression, possibly through ?:, ||, ?? or &&. */
function shownFromJsx(n: ts.Node): boolean {
  let cur: ts.Node = n;
  let p = n.parent;
  while (
    p &&
    (ts.isConditionalExpression(p) ||
      ts.isParenthesizedExpression(p) ||
      (ts.isBinaryExpression(p) &&
        [
          ts.SyntaxKind.BarBarToken,
          ts.SyntaxKind.QuestionQuestionToken,
          ts.SyntaxKind.AmpersandAmpersandToken,
        ].includes(p.operatorToken.kind)))
  ) {
    if (ts.isConditionalExpression(p) && p.condition === cur) return false;
    cur = p;
    p = p.parent;
  }
  return (
    !!p &&
    ts.isJsxExpression(p) &&
    (ts.isJsxElement(p.parent) ||
      ts.isJsxFragment(p.parent) ||
      (ts.isJsxAttribute(p.parent) && textAttributes.has(p.parent.name.getText())))
  );
}

function literalTexts(file: string, text: string): string[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const at = (n: ts.Node, s: string) =>
    found.push(
      `${path.relative(src, file)}:${sf.getLineAndCharacterOfPosition(n.getStart()).line + 1} ${JSON.stringify(s.trim())}`,
    );
  const visit = (n: ts.Node) => {
    if (ts.isJsxText(n) && hasWord(n.text) && !inCode(n)) at(n, n.text);
    else if (ts.isJsxAttribute(n) && n.initializer && ts.isStringLiteral(n.initializer)) {
      if (textAttributes.has(n.name.getText()) && hasWord(n.initializer.text)) at(n, n.initializer.text);
    } else if (
      (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateExpression(n)) &&
      !ts.isImportDeclaration(n.parent)
    ) {
      const s = ts.isTemplateExpression(n)
        ? n.head.text + n.templateSpans.map((x) => x.literal.text).join(' ')
        : n.text;
      const looksLikeText = ts.isTemplateExpression(n)
        ? /\p{L}{2,}\s|\s\p{L}{2,}/u.test(s)
        : /\p{Lu}/u.test(s) && /\s|^\p{Lu}\p{Ll}+$/u.test(s.trim());
      if (hasWord(s) && looksLikeText && shownFromJsx(n)) at(n, s);
      else if (hasWord(s) && ts.isCallExpression(n.parent) && n.parent.arguments[0] === n) {
        const callee = n.parent.expression.getText();
        if (
          /^toast\.(success|error|info|warning|message)$/.test(callee) ||
          /^set\w*(Error|Message|Notice)$/.test(callee)
        )
          at(n, s);
      } else if (
        ts.isStringLiteral(n) &&
        /^\p{Lu}/u.test(s) &&
        hasWord(s) &&
        ts.isPropertyAssignment(n.parent) &&
        textProperties.has(n.parent.name.getText()) &&
        // Data tables of a module (brand names, icons) are not screens; a table built inside a component is.
        ts.findAncestor(n, (a) => ts.isFunctionLike(a)) !== undefined
      )
        at(n, s);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

describe('screens', () => {
  it('render no text that is missing from the catalogues', () => {
    const found = sourceFiles(src).flatMap((f) => literalTexts(f, fs.readFileSync(f, 'utf8')));
    expect(found).toEqual([]);
  });

  it('the check catches a literal text, a text attribute, a shown literal and a toast', () => {
    const sample = `
      export function Page() {
        const [e, setError] = useState('');
        toast.success('Saved!');
        return <div aria-label="Main area">Hello world {ok ? 'Yes please' : t('a')}<code>curl -X POST</code></div>;
      }`;
    const found = literalTexts(path.join(src, 'sample.tsx'), sample).map((s) => s.replace(/^\S+ /, ''));
    expect(found).toEqual(['"Saved!"', '"Main area"', '"Hello world"', '"Yes please"']);
  });
});
