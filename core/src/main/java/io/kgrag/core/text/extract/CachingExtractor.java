package io.kgrag.core.text.extract;

import io.kgrag.core.llm.CachedChat;
import io.kgrag.core.llm.ChatLedger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collection;
import java.util.HexFormat;

/**
 * Optional interface of a {@link TripleExtractor} that asks an LLM through a response cache, so that a
 * re-run sends no request it already sent. A Spark stage detects it with {@code instanceof} and moves the
 * cache rows in and the new replies out the way {@code kgrag qa} does ({@code LlmCacheRows}): by a join on
 * an item key, with each chunk's new replies travelling back on the chunk's own row.
 *
 * <p><b>What a Spark stage does.</b>
 *
 * <ol>
 *   <li>On the driver, when the provider is a {@link CachingExtractorProvider}: {@code model =
 *       provider.cacheModel(settings)}. When it is present and {@code llm_cache} exists, give every chunk row
 *       a column {@code cached}: the {@code llm_cache} rows with {@code model = model} and {@code item_key =
 *       sha2(chunk text, 256)} (exactly {@link #itemKey}), collected per item key as {@code array<struct<
 *       prompt_hash, response, tokens_in, tokens_out>>} and left-joined to the chunks (this is {@code
 *       LlmCacheRows.withCached} with the chunk text's hash as the {@code item_key} column).
 *   <li>In each task, after {@code create(settings)}: for each chunk row, {@link #preload} its cached
 *       replies (as {@link CachedChat}s of {@code model}; they may also all be preloaded at the start of the
 *       partition), then {@link TripleExtractor#extract}, then {@link #takeStep()}, and put the step on the
 *       chunk's output row: the replies it {@linkplain ChatLedger.Step#added() added} (prompt_hash,
 *       response, tokens_in, tokens_out) and its {@linkplain ChatLedger.Step#usage() usage} (calls, cache
 *       hits, tokens). Call {@code takeStep()} after a failed {@code extract} too, so the next chunk's step
 *       holds only its own work. The step's tokens equal the {@link Extraction}'s {@code tokensIn/Out}.
 *   <li>On the driver, after the rows are persisted: merge every row's added replies into {@code llm_cache}
 *       as {@code (model, prompt_hash, response, tokens_in, tokens_out, item_key = the chunk's item key,
 *       created_at)}, inserting only (model, prompt_hash) pairs the table does not hold (this is {@code
 *       LlmCacheRows.write}), and sum the usages into the run's counts.
 * </ol>
 *
 * <p>An extractor that gets no {@link #preload} call simply asks the endpoint for every chunk (the stage may
 * skip the cache entirely). One instance serves one thread at a time, as {@link TripleExtractor} says.
 */
public interface CachingExtractor {
  /** The {@code llm_cache.model} this extractor stores and looks up its replies under. */
  String cacheModel();

  /**
   * Adds replies read from {@code llm_cache} to this extractor's cache: requests they answer are not sent
   * again and cost no tokens. They are not reported by {@link #takeStep()}. Entries of another model are
   * never hit.
   */
  void preload(Collection<CachedChat> cached);

  /**
   * What this extractor added to its cache and spent since the previous call (or since it was made): the
   * new replies to write back to {@code llm_cache} and the endpoint calls, cache hits and tokens.
   */
  ChatLedger.Step takeStep();

  /**
   * The item key of {@code chunk} in {@code llm_cache}: the lower-case hex SHA-256 of the UTF-8 bytes of its
   * text, which is what Spark's {@code sha2(text, 256)} gives.
   */
  static String itemKey(TextChunk chunk) {
    try {
      return HexFormat.of()
          .formatHex(MessageDigest.getInstance("SHA-256").digest(chunk.text().getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is not available", e);
    }
  }
}
