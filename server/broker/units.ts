// EMQX's duration and byte size strings: written once in the contract, for both sides.
export { durationText, parseDuration, parseSize, sizeText } from '../../contract/units.ts'
