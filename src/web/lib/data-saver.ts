// The data saver (docs/performance.md, "Data"): a setting of this device, on /account. Until the
// learner chooses, it is on when the browser asks to save data (Chrome on Android sets
// navigator.connection.saveData, and sends Save-Data, when its own data saver is on). When on,
// pictures are the smallest and nothing is fetched ahead of the learner.
import { useSyncExternalStore } from "react";

type NetworkInformation = { saveData?: boolean };

const STORAGE_KEY = "data-saver";
const listeners = new Set<() => void>();

export function browserSavesData(): boolean {
  const connection: NetworkInformation | undefined = Reflect.get(navigator, "connection");
  return connection?.saveData === true;
}

function storedChoice(): boolean | null {
  try {
    const stored = localStorage.getItem(STORAGE_KEY);
    return stored === "on" ? true : stored === "off" ? false : null;
  } catch {
    return null;
  }
}

/** Whether the data saver is on: the learner's choice on this device, else the browser's. */
export function dataSaverOn(): boolean {
  return storedChoice() ?? browserSavesData();
}

export function setDataSaver(on: boolean): void {
  try {
    localStorage.setItem(STORAGE_KEY, on ? "on" : "off");
  } catch {
    // Storage refused (a private window): the choice lasts as long as the page.
  }
  for (const listener of listeners) listener();
}

export function useDataSaver(): boolean {
  return useSyncExternalStore(
    (changed) => {
      listeners.add(changed);
      window.addEventListener("storage", changed);
      return () => {
        listeners.delete(changed);
        window.removeEventListener("storage", changed);
      };
    },
    dataSaverOn,
  );
}
