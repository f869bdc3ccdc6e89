// Whether the learner's browser asks to save data (docs/performance.md, "Data"): Chrome on
// Android sets navigator.connection.saveData (and sends Save-Data) when its data saver is on.

type NetworkInformation = { saveData?: boolean };

export function browserSavesData(): boolean {
  const connection: NetworkInformation | undefined = Reflect.get(navigator, "connection");
  return connection?.saveData === true;
}
