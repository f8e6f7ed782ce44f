// The prompt builder: recipes of sections (recipe.ts), the field schema of a template (schema.ts), each row's composed
// multimodal content (mm-content.ts), and the config a recipe is saved as (python-config.ts).
export * from './recipe'
export * from './schema'
export * from './python-config'
export * from './mm-content'
