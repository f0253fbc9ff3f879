/** The height of every text field and select, and of a button that stands beside one (size "field"). */
export const FIELD_HEIGHT = "h-10";
