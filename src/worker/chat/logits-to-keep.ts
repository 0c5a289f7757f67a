import {
  concatBytes,
  int64Initializer,
  nodeBytes,
  ONNX_TYPE,
  tensorValueInfo,
  textField,
  wireField,
  wireGraph,
  type WireNode,
} from '../../common/backends/onnx-wire';

/** The optional decoder input, as transformers' exports name it: how many last positions get logits (0 = all). */
export const LOGITS_TO_KEEP = 'num_logits_to_keep';

/** Operators that multiply the hidden states by the head's weights. */
const MATMULS = new Set(['MatMul', 'Gemm', 'MatMulNBits', 'MatMulInteger', 'FusedMatMul', 'MatMulIntegerToFloat']);
/** Operators between the head's product and `logits`: casts, scales, a bias, Gemma's soft cap, a reshape. */
const AFTER_HEAD = new Set(['Cast', 'Mul', 'Div', 'Add', 'Tanh', 'Identity', 'Reshape']);
/** Operators between the final norm and the head's product: quantising, casting or flattening the hidden states. */
const BEFORE_HEAD = new Set(['DynamicQuantizeLinear', 'Cast', 'Reshape', 'Identity', 'Flatten']);
/** How far back from `logits` the head's product may be. */
const DEPTH = 6;
const PREFIX = 'vaani_logits_to_keep';

/**
 * For a decoder export that computes logits at every position (optimum's, Olive's and
 * onnxruntime-genai's exports): the same graph with the optional input `num_logits_to_keep` that
 * newer exports have, so a prompt's run multiplies only its last position by the vocabulary-sized
 * head. The hidden states entering the head (after the final norm, before any quantising, cast or
 * reshape) are sliced to their last `num_logits_to_keep` positions (0 = all, as in transformers).
 * Edited on the wire: every other field, weights included, is copied as it is. Undefined when the
 * graph has the input already, has no `logits` output, the head is not found within a few
 * operators of it, a node between the hidden states and `logits` also feeds another output, or the
 * operator set is older than 10.
 */
export function logitsToKeep(model: Uint8Array): Uint8Array | undefined {
  const graph = wireGraph(model);
  if (!graph || graph.inputs.includes(LOGITS_TO_KEEP) || !graph.outputs.includes('logits')) return undefined;
  if ((graph.opset ?? 0) < 10) return undefined;
  const nodes = [...graph.nodes.values()];
  const producer = new Map<string, WireNode>();
  for (const node of nodes) for (const output of node.outputs) producer.set(output, node);
  const consumers = new Map<string, WireNode[]>();
  for (const node of nodes)
    for (const input of node.inputs) {
      const list = consumers.get(input);
      if (list) list.push(node);
      else consumers.set(input, [node]);
    }

  // The head's product: the nearest matrix product upstream of `logits`.
  let head: WireNode | undefined;
  let frontier = [producer.get('logits')].filter((node) => node !== undefined);
  for (let depth = 0; depth < DEPTH && !head && frontier.length; depth++) {
    head = frontier.find((node) => MATMULS.has(node.op));
    frontier = frontier
      .filter((node) => AFTER_HEAD.has(node.op))
      .flatMap((node) => node.inputs.map((input) => producer.get(input)))
      .filter((node) => node !== undefined);
  }
  if (!head?.inputs[0]) return undefined;
  // The hidden states: the product's first input, before any quantising, cast or reshape.
  let hidden = head.inputs[0];
  for (let node = producer.get(hidden); node && BEFORE_HEAD.has(node.op) && node.inputs[0]; node = producer.get(hidden))
    hidden = node.inputs[0];

  // What each consumer of the hidden states reaches: only `logits` (it takes the slice instead), only
  // other outputs (it keeps every position), or both (no edit).
  const reaches = (start: WireNode): Set<string> => {
    const found = new Set<string>();
    const seen = new Set<WireNode>();
    const stack = [start];
    while (stack.length) {
      const node = stack.pop()!;
      if (seen.has(node)) continue;
      seen.add(node);
      for (const output of node.outputs) {
        if (graph.outputs.includes(output)) found.add(output);
        stack.push(...(consumers.get(output) ?? []));
      }
    }
    return found;
  };
  const moved = new Set<WireNode>();
  for (const node of consumers.get(hidden) ?? []) {
    const outputs = reaches(node);
    if (!outputs.has('logits')) continue;
    if (outputs.size > 1) return undefined;
    moved.add(node);
  }
  if (!moved.size) return undefined;

  const sliced = `${PREFIX}/hidden`;
  const name = (part: string) => `${PREFIX}/${part}`;
  const slice = [
    nodeBytes('Reshape', [LOGITS_TO_KEEP, name('one')], [name('kept')], name('Reshape')),
    nodeBytes('Neg', [name('kept')], [name('starts')], name('Neg')),
    // Axis −2: the positions of [batch, positions, hidden] (or of [positions, hidden] for one sequence).
    nodeBytes('Slice', [hidden, name('starts'), name('ends'), name('axes')], [sliced], name('Slice')),
  ];
  const initializers = [
    int64Initializer(name('one'), [1n], [1]),
    int64Initializer(name('ends'), [2n ** 63n - 1n], [1]),
    int64Initializer(name('axes'), [-2n], [1]),
  ];
  const rewired = (node: WireNode): Uint8Array =>
    wireField(
      1,
      concatBytes(
        node.fields.map((f) => (f.number === 1 && graph.text(f) === hidden ? textField(1, sliced) : graph.verbatim(f))),
      ),
    );
  const source = producer.get(hidden);
  const parts: Uint8Array[] = [];
  let afterInputs = -1;
  // The slice goes after the node that makes the hidden states (first, when a graph input is sliced), so nodes stay in order.
  if (!source) parts.push(...slice.map((bytes) => wireField(1, bytes)));
  for (const span of graph.fields) {
    const node = graph.nodes.get(span);
    parts.push(node && moved.has(node) ? rewired(node) : graph.verbatim(span));
    if (node && node === source) parts.push(...slice.map((bytes) => wireField(1, bytes)));
    if (span.number === 11) afterInputs = parts.length;
  }
  parts.splice(
    afterInputs < 0 ? parts.length : afterInputs,
    0,
    wireField(11, tensorValueInfo(LOGITS_TO_KEEP, ONNX_TYPE.int64, [])),
  );
  parts.push(...initializers.map((bytes) => wireField(5, bytes)));
  return graph.withGraph(parts);
}
