//! Generator of sound tsume problems (work in progress: see the project issues).
