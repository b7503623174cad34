// FFmpeg's libraries (libavformat, libavcodec, libswscale, libavutil)
// through Debian's libav*-dev. Only SleetVideo calls into this module.
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/opt.h>
#include <libswscale/swscale.h>

// The error codes FFmpeg spells as function-like macros, which Swift does
// not import.
static inline int sleet_averror_again(void) { return AVERROR(EAGAIN); }
static inline int sleet_averror_eof(void) { return AVERROR_EOF; }
static inline int sleet_averror_invalid(void) { return AVERROR(EINVAL); }
static inline int sleet_averror_nomem(void) { return AVERROR(ENOMEM); }
