/**
 * @module Reads an exported interface (by default `OfferWidgetProps` from src/widget/index.ts) with the
 * TypeScript compiler API: each property's name, type as written, JSDoc, and the kind of control that
 * edits it. The playground's props table and its generic controls come from this, so the widget's types
 * are the one place a prop is described. Build-time only (Node): the vite plugin runs it.
 */
import ts from 'typescript'
import type { PropControl, PropDoc } from './prop-doc.ts'

const COMPILER_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  jsx: ts.JsxEmit.ReactJSX,
  strict: true,
  allowImportingTsExtensions: true,
  noEmit: true,
  skipLibCheck: true,
  types: [],
}

function controlOf(type: ts.Type, checker: ts.TypeChecker): PropControl {
  const t = checker.getNonNullableType(type)
  if (t.getCallSignatures().length > 0) return { kind: 'callback' }
  if (t.flags & ts.TypeFlags.Boolean || t.flags & ts.TypeFlags.BooleanLiteral) return { kind: 'boolean' }
  if (t.flags & ts.TypeFlags.String) return { kind: 'text' }
  if (t.flags & ts.TypeFlags.Number) return { kind: 'number' }
  const members = t.isUnion() ? t.types : [t]
  if (members.every((m) => m.isStringLiteral() || m.isNumberLiteral())) {
    return { kind: 'select', options: members.map((m) => (m as ts.LiteralType).value as string | number) }
  }
  return { kind: 'object' }
}

/**
 * The properties of each of `interfaceNames` as exported by `entry` (a .ts file path), read with one
 * program (creating it is most of the cost).
 */
export function extractProps<const Name extends string>(
  entry: string,
  interfaceNames: readonly Name[],
): Record<Name, PropDoc[]> {
  const program = ts.createProgram([entry], COMPILER_OPTIONS)
  const checker = program.getTypeChecker()
  const source = program.getSourceFile(entry)
  if (!source) throw new Error(`props-doc: cannot read ${entry}`)
  const moduleSymbol = checker.getSymbolAtLocation(source)
  const exports = moduleSymbol ? checker.getExportsOfModule(moduleSymbol) : []
  const result = {} as Record<Name, PropDoc[]>
  for (const name of interfaceNames) {
    const exported = exports.find((s) => s.name === name)
    if (!exported) throw new Error(`props-doc: ${entry} does not export ${name}`)
    result[name] = propertiesOf(exported, checker)
  }
  return result
}

function propertiesOf(exported: ts.Symbol, checker: ts.TypeChecker): PropDoc[] {
  const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported
  const declared = checker.getDeclaredTypeOfSymbol(target)
  return checker.getPropertiesOfType(declared).map((property) => {
    const declaration = property.valueDeclaration ?? property.declarations?.[0]
    const type = checker.getTypeOfSymbol(property)
    const written =
      declaration && ts.isPropertySignature(declaration) && declaration.type
        ? declaration.type.getText()
        : checker.typeToString(checker.getNonNullableType(type))
    const full = checker.typeToString(
      checker.getNonNullableType(type),
      undefined,
      ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.InTypeAlias,
    )
    return {
      name: property.name,
      type: written,
      expanded: full !== written && !full.includes('{') && full.length < 160 ? full : undefined,
      optional: (property.flags & ts.SymbolFlags.Optional) !== 0,
      doc: ts.displayPartsToString(property.getDocumentationComment(checker)).trim(),
      control: controlOf(type, checker),
    }
  })
}
