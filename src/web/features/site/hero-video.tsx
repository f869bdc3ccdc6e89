import { useState } from "react";

const HERO_VIDEO_ID = "bQy71i4MtSQ";

/** A light poster that loads the YouTube player only when asked, so the home page stays fast. */
export function HeroVideo() {
  const [playing, setPlaying] = useState(false);
  if (playing) {
    return (
      <div className="video-frame">
        <iframe
          src={`https://www.youtube-nocookie.com/embed/${HERO_VIDEO_ID}?rel=0&autoplay=1`}
          title="Trading Academy introduction video"
          allow="accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture"
          allowFullScreen
        />
      </div>
    );
  }
  return (
    <button type="button" className="video-frame video-poster" onClick={() => setPlaying(true)}>
      <span className="play-icon" aria-hidden="true">
        <svg viewBox="0 0 24 24" width="32" height="32">
          <path d="M8 5v14l11-7z" fill="currentColor" />
        </svg>
      </span>
      <span className="video-poster-label">Watch the introduction</span>
    </button>
  );
}
