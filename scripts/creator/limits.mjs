// What Creator's own pipeline (scripts/creator/check.mjs) cannot tell, checked on the source
// (exit 1, naming file:line):
// - a type re-exported without `export type`: Babel has no type information, so it keeps the
//   export, and SystemJS gives the importer `undefined` without any error;
// - `window.`/`global.`: compiles, then fails in the native runtimes, which have neither;
// - syntax newer than Creator's documented TypeScript 4.1 that the Babel npm resolves today
//   accepts (const enums, satisfies, const type parameters, using, declare fields), while the
//   Babel bundled with an earlier Creator 3.8.x may not.
// Syntax the pipeline refuses itself (accessor fields, `export =`) is left to it.
// Usage: node scripts/creator/limits.mjs <dir> [<dir>…]
import ts from 'typescript';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const dirs = process.argv.slice(2);
if (dirs.length === 0) {
  console.error('usage: node scripts/creator/limits.mjs <dir> [<dir>…]');
  process.exit(2);
}

const problems = [];
const typeNameCache = new Map();

function listTs(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...listTs(path));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

function parse(path) {
  return ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
}

function hasModifier(node, kind) {
  const mods = ts.canHaveModifiers(node) ? ts.getModifiers(node) : undefined;
  return !!mods && mods.some((modifier) => modifier.kind === kind);
}

/** Names a module exports only as types (interfaces, type aliases, `export type` re-exports). */
function typeOnlyExports(path) {
  if (typeNameCache.has(path)) return typeNameCache.get(path);
  const types = new Set();
  const values = new Set();
  typeNameCache.set(path, types);
  const file = parse(path);
  for (const statement of file.statements) {
    const exported = hasModifier(statement, ts.SyntaxKind.ExportKeyword);
    if ((ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement)) && exported)
      types.add(statement.name.text);
    else if (
      (ts.isClassDeclaration(statement) || ts.isFunctionDeclaration(statement) || ts.isEnumDeclaration(statement)) &&
      exported &&
      statement.name
    )
      values.add(statement.name.text);
    else if (ts.isVariableStatement(statement) && exported) {
      for (const declaration of statement.declarationList.declarations)
        if (ts.isIdentifier(declaration.name)) values.add(declaration.name.text);
    } else if (
      ts.isExportDeclaration(statement) &&
      statement.exportClause &&
      ts.isNamedExports(statement.exportClause)
    ) {
      for (const element of statement.exportClause.elements)
        (statement.isTypeOnly || element.isTypeOnly ? types : values).add(element.name.text);
    }
  }
  for (const value of values) types.delete(value); // a class is both: it is a value
  return types;
}

/** The file a relative specifier points at (`x` → x.ts / x/index.ts, `x.js` → x.d.ts), or null. */
function resolveSpecifier(fromFile, specifier) {
  if (!specifier.startsWith('.')) return null;
  const base = resolve(dirname(fromFile), specifier);
  const candidates = specifier.endsWith('.js')
    ? [base.slice(0, -3) + '.d.ts', base.slice(0, -3) + '.ts']
    : [base + '.ts', base + '.d.ts', join(base, 'index.ts')];
  return candidates.find((candidate) => existsSync(candidate)) || null;
}

function check(path) {
  const file = parse(path);
  const report = (node, message) => {
    const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
    problems.push(`${relative(process.cwd(), path)}:${line + 1}: ${message}`);
  };
  // Names imported or declared only as types in this file (for `export { X }` without a source).
  const localTypes = new Set();
  for (const statement of file.statements) {
    if (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement))
      localTypes.add(statement.name.text);
    if (ts.isImportDeclaration(statement) && statement.importClause) {
      const clause = statement.importClause;
      if (clause.namedBindings && ts.isNamedImports(clause.namedBindings)) {
        for (const element of clause.namedBindings.elements)
          if (clause.isTypeOnly || element.isTypeOnly) localTypes.add(element.name.text);
      }
    }
  }

  const visit = (node) => {
    if (ts.isEnumDeclaration(node) && hasModifier(node, ts.SyntaxKind.ConstKeyword)) {
      report(
        node,
        `const enum ${node.name.text}: Creator's Babel turns it into a plain object at best; use a plain enum or an object.`,
      );
    }
    if (ts.SyntaxKind.SatisfiesExpression !== undefined && node.kind === ts.SyntaxKind.SatisfiesExpression) {
      report(node, "`satisfies` (TS 4.9) is newer than Creator's TypeScript 4.1 support.");
    }
    if (ts.isTypeParameterDeclaration(node) && hasModifier(node, ts.SyntaxKind.ConstKeyword)) {
      report(node, "`const` type parameters (TS 5.0) are not supported by Creator's Babel.");
    }
    if (ts.isVariableDeclarationList(node) && (node.flags & ts.NodeFlags.Using) !== 0) {
      report(node, "`using` declarations are not supported by Creator's Babel.");
    }
    if (ts.isPropertyDeclaration(node) && hasModifier(node, ts.SyntaxKind.DeclareKeyword)) {
      report(node, '`declare` class fields need allowDeclareFields in the project; avoid them.');
    }
    if (ts.isImportEqualsDeclaration(node)) report(node, '`import x = …` is not supported; use an ES import.');
    if (ts.isExportDeclaration(node) && !node.isTypeOnly && node.exportClause && ts.isNamedExports(node.exportClause)) {
      const target =
        node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)
          ? resolveSpecifier(path, node.moduleSpecifier.text)
          : null;
      const types = target ? typeOnlyExports(target) : node.moduleSpecifier ? new Set() : localTypes;
      for (const element of node.exportClause.elements) {
        const name = (element.propertyName || element.name).text;
        if (!element.isTypeOnly && types.has(name))
          report(
            element,
            `"${name}" is a type: re-export it with \`export type { ${name} }\` (Babel cannot tell types from values).`,
          );
      }
    }
    if (
      ts.isPropertyAccessExpression(node) &&
      ts.isIdentifier(node.expression) &&
      (node.expression.text === 'window' || node.expression.text === 'global')
    ) {
      report(node, `\`${node.expression.text}.\` does not exist in every Cocos runtime; use globalThis.`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
}

let count = 0;
for (const dir of dirs) {
  if (!existsSync(dir)) {
    console.error(`limits: ${dir} does not exist`);
    process.exit(2);
  }
  for (const path of listTs(dir)) {
    check(path);
    count++;
  }
}
if (problems.length > 0) {
  console.error(problems.join('\n'));
  console.error(`limits: ${problems.length} problem(s) in ${count} file(s).`);
  process.exit(1);
}
console.log(`limits: ${count} file(s) OK.`);
