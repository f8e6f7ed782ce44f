// AISBench's exception text, reproduced for retriever errors: `AISBench*Error(code, msg)` prints as
// "[<CODE>]<code summary>. <msg> | Visit <faq url>#<code> for further help." with ANSI colours, and the
// goldens keep that raw string (plus an ANSI-free copy, which `stripAnsi` gives).

const ESC = '\u001b'
const FAQ = 'https://ais-bench-benchmark.readthedocs.io/zh-cn/latest/faqs/error_codes.html'

/** The full `str(exc)` with the class name prefix, exactly as upstream prints it. */
export function aisErrorText(errorClass: string, code: string, summary: string, message: string): string {
  return (
    `${errorClass}: [${ESC}[1m${ESC}[41m${ESC}[33m${code}${ESC}[0m]${ESC}[1m${ESC}[31m${summary}${ESC}[0m. ` +
    `${message} | Visit ${ESC}[4m${ESC}[35m${FAQ}#${code.toLowerCase()}${ESC}[0m for further help.`
  )
}

/**
 * The text without terminal escape sequences (colours and any other CSI or OSC sequence): what a person should read
 * in the app, the CLI and exports, where AISBench's colour codes would show as `\x1b[1m` garbage.
 */
export function stripAnsi(s: string): string {
  return s.replace(/\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g, '')
}
