// LazyLLM's ChatPrompter (lazyllm/components/prompter/chatPrompter.py): system + instruction + skills + tools, then
// history and the user turn framed by the model's sos/eos/soh/eoh/soa/eoa tokens.
import { ISA, ISE, LazyLLMPrompterBase, extraKeyTemplate, instructionParts, type BaseOptions, type InstructionOptions } from './prompter-base'

export const CHAT_TEMPLATE =
  '{sos}{system}{instruction}{skills}{tools}{eos}\n\n{history}\n{soh}\n{user}{input}\n{eoh}{soa}\n'

export type ChatOptions = BaseOptions & InstructionOptions

export class ChatPrompter extends LazyLLMPrompterBase {
  constructor(opts: ChatOptions = {}) {
    super(opts)
    this.initAs('ChatPrompter', () => {
      const ek = extraKeyTemplate(opts.extraKeys)
      const ins = opts.instruction ?? null
      const parts = instructionParts(ins)
      let instructionTemplate = ''
      if (parts) instructionTemplate = parts.system + ISA + parts.user + ek + ISE + '\n'
      else if (ins) instructionTemplate = `${ins}\n${ek}\n`
      else if (ek) {
        this.initWarnings.push({
          code: 'lazyllm.extra_keys_dropped',
          message: 'ChatPrompter without an instruction drops extra_keys: their values are not placed in the prompt.'
        })
      }
      this.initPrompt(CHAT_TEMPLATE, instructionTemplate)
    })
  }

  /** `soa + '\n'` when the model defines an assistant token, else no split. */
  override get split(): string | null {
    return this.soa ? this.soa + '\n' : null
  }
}
