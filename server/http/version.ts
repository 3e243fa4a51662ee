// The EMQX release the embedded server answers as, so the console enables the same features.
export const EMQX_VERSION = '5.8.0'
