package io.kgrag.core.llm;

import java.util.Optional;

/** Chat completions by model and prompt hash, so that a re-run sends no request it already sent. */
public interface ChatCache {

  Optional<CachedChat> get(String model, String promptHash);

  /** Stores an entry; an entry already held for the same model and hash is kept. */
  void put(CachedChat entry);

  /** A cache that holds nothing: every lookup misses and nothing is stored. */
  static ChatCache disabled() {
    return Disabled.INSTANCE;
  }

  /** The cache of {@link #disabled()}. */
  enum Disabled implements ChatCache {
    INSTANCE;

    @Override
    public Optional<CachedChat> get(String model, String promptHash) {
      return Optional.empty();
    }

    @Override
    public void put(CachedChat entry) {}
  }
}
