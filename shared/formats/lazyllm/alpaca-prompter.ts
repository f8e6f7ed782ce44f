// LazyLLM's AlpacaPrompter (lazyllm/components/prompter/alpacaPrompter.py): the Alpaca instruction layout, where
// every input must land in an instruction slot or an extra key, and history is refused.
import { ISA, ISE, LazyLLMPrompterBase, extraKeyTemplate, instructionParts, type BaseOptions, type InstructionOptions } from './prompter-base'
import { PyError, pyTruthy, type PyValue } from './python-values'

export const ALPACA_PREFIX =
  'Below is an instruction that describes a task, paired with extra messages such as input that provides further context if possible. Write a response that appropriately completes the request.\n\n### Instruction:\n'
export const ALPACA_TEMPLATE = '{system}\n{instruction}\n{tools}\n{user}### Response:\n'
export const ALPACA_SPLIT = '### Response:\n'

export type AlpacaOptions = Omit<BaseOptions, 'history' | 'skills' | 'enableSystem'> & InstructionOptions

export class AlpacaPrompter extends LazyLLMPrompterBase {
  constructor(opts: AlpacaOptions = {}) {
    super(opts)
    this.initAs('AlpacaPrompter', () => {
      const ek = extraKeyTemplate(opts.extraKeys)
      const parts = instructionParts(opts.instruction)
      const instructionTemplate = parts
        ? ALPACA_PREFIX + parts.system + ISA + parts.user + (ek ? '\n\n' + ek : '') + ISE
        : ALPACA_PREFIX + (opts.instruction || '') + '\n\n' + ek
      this.initPrompt(ALPACA_TEMPLATE, instructionTemplate, ALPACA_SPLIT)
    })
  }

  protected override checkValues(_instruction: string, input: PyValue, history: PyValue): void {
    if (pyTruthy(history)) {
      throw new PyError(
        'AssertionError',
        "Chat history is not supported in <class 'lazyllm.components.prompter.alpacaPrompter.AlpacaPrompter'>."
      )
    }
    if (pyTruthy(input)) throw new PyError('AssertionError', 'All keys should in instruction or extra-keys')
  }
}
