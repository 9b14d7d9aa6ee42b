/** `1 cube`, `2 cubes`: counts in messages people read (build logs, errors). */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
