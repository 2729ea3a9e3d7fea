/**
 * The {@code openie} text extractor, kept in its own module because Stanford CoreNLP is GPL-licensed: {@link
 * io.kgrag.extract.openie.OpenIeProvider} (found by {@link io.kgrag.core.text.extract.Extractors} through
 * {@link java.util.ServiceLoader}) makes {@link io.kgrag.extract.openie.OpenIeExtractor}s, which run CoreNLP
 * NER and OpenIE on a chunk with {@link io.kgrag.extract.openie.OpenIeSettings} and keep what {@link
 * io.kgrag.extract.openie.TripleFilter} accepts. No module imports it; it is loaded by name when on the
 * classpath.
 */
package io.kgrag.extract.openie;
