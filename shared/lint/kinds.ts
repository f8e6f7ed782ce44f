// The finding kinds lint knows by name: a title, the default severity and what to do. Model-side kinds are the
// codes the renderers already give (signals.ts, render-row.ts, engine warnings), so a signal the matrix shows is
// a lint kind without new logic; a code not listed here still becomes a group, with the renderer's own message.
import type { LintSeverity } from './report'

export interface KindInfo {
  title: string
  severity: LintSeverity
  advice: string
  /** 'model': found in a model's input; 'dataset': a check of the rows themselves. */
  scope: 'model' | 'dataset'
}

export const KINDS: Record<string, KindInfo> = {
  // Model input signals (what the matrix shows per column).
  'double-bos': { scope: 'model', severity: 'error', title: 'BOS token twice', advice: 'Remove the BOS from the meta/chat template or set add_bos_token to false in the tokenizer config: the model sees two BOS tokens.' },
  'system-dropped': { scope: 'model', severity: 'warning', title: 'System message dropped', advice: "This model's format drops the system message: move its instructions into the first user turn or choose a format that keeps it." },
  'system-remapped': { scope: 'model', severity: 'warning', title: 'System message remapped', advice: 'The system message reaches the model as user text or plain text: check that the prompt still reads as intended.' },
  'system-unsupported': { scope: 'model', severity: 'error', title: 'System message rejected', advice: "The chat template raises on a system role: drop the SYSTEM turn for this model or use fallback_role='HUMAN'." },
  'turns-merged': { scope: 'model', severity: 'warning', title: 'Consecutive turns merged', advice: 'Two same-role turns become one: alternate HUMAN/BOT in the template, or accept the merge knowingly.' },
  'empty-turn': { scope: 'model', severity: 'warning', title: 'Empty turn', advice: 'A turn with no text reaches the model: fill the field behind it or remove the role from the template.' },
  'unfilled-field': { scope: 'model', severity: 'warning', title: 'Unfilled {field}', advice: 'A {placeholder} stays literal in the prompt: add the column to reader_cfg.input_columns or fix its name in the template.' },
  'template-error': { scope: 'model', severity: 'error', title: 'Template error', advice: 'The row cannot be rendered: fix the template at the position shown (or the row that triggers it); these rows are skipped by the evaluation.' },
  'over-context': { scope: 'model', severity: 'error', title: 'Over the context length', advice: "The prompt is longer than the model's context: shorten the row, drop in-context examples, or set max_seq_len so OpenCompass truncates examples." },
  'examples-truncated': { scope: 'model', severity: 'warning', title: 'In-context examples truncated', advice: 'OpenCompass drops examples from the end until the prompt fits max_seq_len: these rows are evaluated with fewer shots than configured.' },
  'examples-none-fit': { scope: 'model', severity: 'error', title: 'Too long even with zero examples', advice: 'With every in-context example dropped the prompt is still over max_seq_len: the model gets a truncated input. Shorten the row or raise max_seq_len.' },
  'media-dropped': { scope: 'model', severity: 'warning', title: 'Media dropped by the model', advice: "This model's format cannot take the row's media: it receives the text only. Use a multimodal model or a text-only variant." },
  'added-generation-prompt': { scope: 'model', severity: 'info', title: 'Template added a generation prompt', advice: 'Expected for generation; check it is what the evaluation wants (PPL scoring usually does not).' },
  'added-default-system': { scope: 'model', severity: 'info', title: 'Template added a default system prompt', advice: 'The format inserts its own system prompt: pass an explicit one if the default is not wanted.' },
  'added-date': { scope: 'model', severity: 'info', title: 'Template added a date', advice: "The input holds a date: pin it (date_string) so runs are reproducible." },
  'meta-template-not-applied': { scope: 'model', severity: 'info', title: 'Meta template not applied (plain-string prompt)', advice: 'OpenCompass sends a plain-string template unchanged: use a dialogue template (round=[…]) to get role markers and special tokens.' },
  'conversion-error': { scope: 'model', severity: 'error', title: 'Message conversion failed', advice: 'OpenCompass cannot turn this prompt into messages for the model: check the roles of the template.' },
  'format-warning': { scope: 'model', severity: 'warning', title: 'Format warning', advice: "See the message: the model's format reported something unusual." },
  // Media.
  'media-missing': { scope: 'dataset', severity: 'error', title: 'Media file missing', advice: 'The referenced file does not exist: fix the path or restore the file.' },
  'media-refused': { scope: 'dataset', severity: 'error', title: 'Media outside the opened folders', advice: 'The path leaves the project and dataset folders (or is remote): copy the file under the dataset folder.' },
  'media-unreadable': { scope: 'dataset', severity: 'error', title: 'Media unreadable', advice: 'The bytes are not a known image, audio or video format (truncated or mislabelled file): re-export it.' },
  'media-oversized': { scope: 'dataset', severity: 'warning', title: 'Media oversized', advice: 'Larger than model APIs accept (images 20 MB, audio 25 MB, video 100 MB): downscale or re-encode it.' },
  // Conversation rows (OpenAI messages, LLaVA/ShareGPT conversations: shared/conversation).
  'conversation-missing': { scope: 'dataset', severity: 'error', title: 'Conversation missing', advice: 'The row has no list of turns where the others have one: fix the row or reject it.' },
  'conversation-turn': { scope: 'dataset', severity: 'error', title: 'Unreadable conversation turn', advice: 'A turn is not an object with role/content (or from/value): it is left out. Fix the turn.' },
  'conversation-role': { scope: 'dataset', severity: 'warning', title: 'Unknown conversation role', advice: 'A turn comes from a tag other than human/gpt/system: it is sent with that role, which few templates accept. Rename it.' },
  'conversation-empty': { scope: 'dataset', severity: 'error', title: 'Nothing to send', advice: 'Once the final assistant turn is kept as the reference answer, no turn is left to send: add the question turn.' },
  'conversation-media-count': { scope: 'dataset', severity: 'warning', title: 'Pictures and <image> placeholders differ', advice: 'The row lists a different number of images than its <image> placeholders: LLaMA-Factory refuses such rows. Add or remove placeholders.' },
  'conversation-media-placed': { scope: 'dataset', severity: 'info', title: 'Pictures without a placeholder', advice: 'No <image> in the conversation: the pictures go before the first user turn, as LLaVA eval does. Add <image> where they belong.' },
  'conversation-media-unplaced': { scope: 'dataset', severity: 'error', title: 'Pictures with no user turn', advice: 'The row lists pictures but has no user turn to carry them: they are not sent.' },
  // Whole-set dataset checks.
  'duplicate-prompt': { scope: 'dataset', severity: 'warning', title: 'Exact duplicate prompts', advice: 'The same input appears in several rows: reject all but one, or the score counts it several times.' },
  'near-duplicate-prompt': { scope: 'dataset', severity: 'info', title: 'Near-duplicate prompts', advice: 'Rows whose inputs differ only slightly (case, spacing, punctuation, a few words): check whether they test the same thing.' },
  'gold-leak': { scope: 'dataset', severity: 'error', title: 'Gold answer in the prompt', advice: 'The expected answer appears in the fields the model reads: remove it from the input columns.' },
  'empty-field': { scope: 'dataset', severity: 'warning', title: 'Empty or whitespace-only field', advice: 'An input or answer field is empty: fill it or reject the row.' },
  'label-imbalance': { scope: 'dataset', severity: 'warning', title: 'Answer labels unbalanced', advice: 'One option letter is the answer far more often than the others: a model that guesses it scores above chance. Shuffle the options.' },
  'example-in-test': { scope: 'dataset', severity: 'error', title: 'In-context example is also a test row', advice: 'A row used as an in-context example appears in the test split: the model sees the answer. Pick examples from rows not under test.' }
}

/** Catalogue entry for a code; unknown codes get a generic entry with the renderer's severity. */
export function kindInfo(kind: string, severity: LintSeverity = 'warning'): KindInfo {
  return KINDS[kind] ?? { scope: 'model', severity, title: kind.replace(/-/g, ' '), advice: "See the example messages: this is what the matrix shows for these rows." }
}

/** Codes a renderer gives that lint reports under a broader kind (an engine or template exception → template-error). */
export function lintKindOf(code: string, severity: LintSeverity): string {
  if (KINDS[code]) return code
  return severity === 'error' ? 'template-error' : code
}
