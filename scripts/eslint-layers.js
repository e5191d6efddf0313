// The house's layers as a lint rule: a file may import from its own layer and the layers below it,
// never from one above (docs/ARCHITECTURE.md "Layers"). Layers are lists of folder (or file)
// prefixes, lowest first; a file belongs to the layer of its longest matching prefix. Relative
// imports are resolved against the importing file; files outside every layer are not checked.
import path from 'node:path';

function layerOf(rel, layers) {
  let best = null;
  layers.forEach((prefixes, level) => {
    for (const p of prefixes) {
      // 'renderer/core/' is a folder; 'electron/ipc.ts' a file; 'electron/serve' a file stem or folder.
      const hit = p.endsWith('/')
        ? rel.startsWith(p)
        : rel === p || rel.startsWith(`${p}/`) || rel.startsWith(`${p}.`);
      if (hit && (best === null || p.length > best.prefix.length)) best = { level, prefix: p };
    }
  });
  return best;
}

const order = {
  meta: {
    type: 'problem',
    docs: { description: 'imports go down the layers, never up' },
    schema: [
      {
        type: 'object',
        properties: {
          root: { type: 'string' },
          layers: { type: 'array', items: { type: 'array', items: { type: 'string' } } },
        },
        required: ['layers'],
        additionalProperties: false,
      },
    ],
    messages: {
      up: '{{from}} ({{fromLayer}}) imports {{to}} ({{toLayer}}), a layer above it. Layers, lowest first: {{order}}.',
    },
  },
  create(context) {
    const { layers, root = process.cwd() } = context.options[0];
    const file = path.relative(root, context.filename).split(path.sep).join('/');
    const self = layerOf(file, layers);
    if (!self) return {};
    const check = (node, spec) => {
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const target = path
        .relative(root, path.resolve(path.dirname(context.filename), spec))
        .split(path.sep)
        .join('/');
      const to = layerOf(target, layers);
      if (!to || to.level <= self.level) return;
      context.report({
        node,
        messageId: 'up',
        data: {
          from: file,
          fromLayer: self.prefix,
          to: target,
          toLayer: to.prefix,
          order: layers.map((l) => l.join(' ')).join(' ← '),
        },
      });
    };
    return {
      ImportDeclaration: (n) => check(n.source, n.source.value),
      ExportNamedDeclaration: (n) => n.source && check(n.source, n.source.value),
      ExportAllDeclaration: (n) => check(n.source, n.source.value),
      ImportExpression: (n) => n.source.type === 'Literal' && check(n.source, n.source.value),
    };
  },
};

export default { rules: { order } };
