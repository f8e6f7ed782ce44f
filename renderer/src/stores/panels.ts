// Which overlay panel is open (Open…, Models…, Export…). One at a time; Esc closes it and focus returns to the row list.
import { defineStore } from 'pinia'
import { ref } from 'vue'

export type PanelName = 'open' | 'models' | 'export' | null

export const usePanels = defineStore('panels', () => {
  const open = ref<PanelName>(null)
  function show(name: Exclude<PanelName, null>) {
    open.value = open.value === name ? null : name
  }
  function close() {
    open.value = null
    document.querySelector<HTMLElement>('[data-testid=row-list]')?.focus()
  }
  return { open, show, close }
})
