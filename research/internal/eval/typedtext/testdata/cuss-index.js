/**
 * Map of made-up test words to a rating.
 *
 * @type {Record<string, number>}
 */
export const cuss = {
  blorp: 0,
  'blorp blorp': 2,
  "zib's": 1,
  zonk: 2
}
