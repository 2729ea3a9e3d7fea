/**
 * Reading entities and relations out of text chunks, behind one interface: {@link
 * io.kgrag.core.text.extract.TripleExtractor}, made by a {@link
 * io.kgrag.core.text.extract.TripleExtractorProvider} found by name ({@link
 * io.kgrag.core.text.extract.Extractors}). The offline default {@code openie} (Stanford CoreNLP OpenIE and
 * NER) lives in its own module because of its licence; {@code llm} uses the paper prompts through an
 * OpenAI-compatible endpoint.
 */
package io.kgrag.core.text.extract;
