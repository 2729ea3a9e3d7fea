package io.kgrag.core.text.extract.llm;

import io.kgrag.core.llm.LlmConfig;
import io.kgrag.core.llm.OpenAiClient;
import io.kgrag.core.text.extract.CachingExtractorProvider;
import io.kgrag.core.text.extract.TripleExtractor;
import io.kgrag.core.text.extract.TripleExtractorProvider;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code llm} extractor ({@link LlmTripleExtractor}), configured by {@link LlmExtractorSettings}. Its
 * extractors in one JVM share one {@link OpenAiClient} per endpoint config (one HTTP client, the API key read
 * once from the environment variable the config names) and one {@link EndpointGate} per endpoint and limits.
 */
public final class LlmExtractorProvider implements TripleExtractorProvider, CachingExtractorProvider {
  private static final Map<LlmConfig, OpenAiClient> CLIENTS = new ConcurrentHashMap<>();

  @Override
  public String name() {
    return "llm";
  }

  @Override
  public String description() {
    return "entities and relations by an LLM with a paper prompt (llm.prompt=lightrag: QAFD-RAG/LightRAG records,"
        + " the default; sgrag: SG-RAG Table 11) through an OpenAI-compatible endpoint (llm.url and llm.model, or"
        + " spark.kgrag.llm.*), replies cached in llm_cache";
  }

  @Override
  public TripleExtractor create(Map<String, String> settings) {
    LlmExtractorSettings s = LlmExtractorSettings.parse(settings);
    OpenAiClient client = CLIENTS.computeIfAbsent(s.llm(), OpenAiClient::new);
    EndpointGate gate = EndpointGate.shared(s.llm().baseUrl(), s.concurrency(), s.requestsPerMinute());
    return new LlmTripleExtractor(s, messages -> gate.call(client::chat, messages));
  }

  @Override
  public Optional<String> cacheModel(Map<String, String> settings) {
    return Optional.of(LlmExtractorSettings.parse(settings).llm().model());
  }
}
