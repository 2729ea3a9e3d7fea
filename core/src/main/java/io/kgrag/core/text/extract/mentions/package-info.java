/**
 * The {@code mentions} extractor: a fast, offline reading of text for large corpora, enough to link passages
 * through the entities they share. It finds entity mentions (the document's title and labels the user
 * knows, runs of capitalised words, numbers and years, noun phrases after a determiner) and, between two
 * neighbouring mentions of one sentence, the words that join them as the relation phrase. It uses no model:
 * only {@link java.text.BreakIterator} sentences, a tokeniser, and English's closed-class words ({@link
 * io.kgrag.core.text.extract.mentions.FunctionWords}).
 */
package io.kgrag.core.text.extract.mentions;
