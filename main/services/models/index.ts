// Main-process model services: the built-in profile library, imports from model folders and OpenCompass
// configs, token counting (a "--model" reference is resolved by main/services/workspace/load-models.ts).
export { loadProfileLibrary, loadProfileFile } from './profile-library'
export type { ProfileLibrary, ProfileLoadError } from './profile-library'
export { importProfileFromModelFolder, modelNameFromPath, tokenText } from './import-model-folder'
export type { ImportResult, ImportWarning } from './import-model-folder'
export { importProfileFromOpenCompassConfig, profileFromOpenCompassModel } from './import-opencompass-config'
export type { ConfigImportResult, OpenCompassConfigLoader } from './import-opencompass-config'
export { loadHfTokenizer, exactCounter, estimateCounter, tokenCounterForProfile } from './tokenizer'
export type { TokenCounter, Encoded, TokenizerLoadError } from './tokenizer'
