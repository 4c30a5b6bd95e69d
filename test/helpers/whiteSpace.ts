/** White space as JavaScript has it (`\s`, `trim()`): the chars where text and byte strings part. */

/** Every ASCII char `\s` matches. */
export const ASCII_SPACES = ["\t", "\n", "\u000b", "\f", "\r", " "];

/** Every non-ASCII char `\s` matches: one char in a text, two or three in a byte string. */
export const NON_ASCII_SPACES = ["\u00a0", "\u1680", ..."\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a", "\u2028", "\u2029", "\u202f", "\u205f", "\u3000", "\ufeff"];
